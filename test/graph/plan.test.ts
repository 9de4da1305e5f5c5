import { expect } from 'chai';
import { buildPlan } from '../../src/graph/plan.js';
import { toDot } from '../../src/graph/dot.js';
import type { Resource } from '../../src/state/resource.js';

function res(ref: string, links: Partial<Resource['links']> = {}, index?: number): Resource {
  const [type, ...rest] = ref.split(':');
  return {
    ref,
    type,
    name: rest.join(':'),
    attrs: {},
    links: { before: [], after: [], notify: [], subscribe: [], ...links },
    tags: [],
    at: { file: 's.hcl', line: index ?? 0 },
    file: 's.hcl',
    index: index ?? 0,
    stateDir: '/',
  };
}

function plan(...specs: [string, Partial<Resource['links']>?][]) {
  return buildPlan(specs.map(([ref, links], i) => res(ref, links, i)));
}

describe('buildPlan', () => {
  it('keeps definition order when nothing says otherwise', () => {
    expect(plan(['c:1'], ['a:2'], ['b:3']).order).to.deep.equal(['c:1', 'a:2', 'b:3']);
  });

  it('moves resources for before and after, and otherwise keeps definition order', () => {
    const p = plan(['a:1'], ['b:2', { before: ['a:1'] }], ['c:3'], ['d:4', { after: [] }], ['e:5'], ['f:6', { before: ['e:5'] }]);
    expect(p.order).to.deep.equal(['b:2', 'a:1', 'c:3', 'd:4', 'f:6', 'e:5']);
    expect(plan(['a:1', { after: ['c:3'] }], ['b:2'], ['c:3']).order).to.deep.equal(['b:2', 'c:3', 'a:1']);
  });

  it('orders a notifier before what it notifies, and a subscriber after what it watches', () => {
    const p = plan(['service:nginx'], ['pkg:nginx', { notify: ['service:nginx:restart'] }], ['exec:x', { subscribe: ['file#/etc/x'] }], ['file:/etc/x']);
    expect(p.order).to.deep.equal(['pkg:nginx', 'service:nginx', 'file:/etc/x', 'exec:x']);
    expect(p.notifications).to.deep.equal([
      { from: 'pkg:nginx', to: 'service:nginx', signal: 'restart' },
      { from: 'file:/etc/x', to: 'exec:x', signal: 'refresh' },
    ]);
  });

  it('reads a notify string that is itself an RREF as refresh, even with colons in the name', () => {
    const p = plan(['a:1', { notify: ['svc:x:y', 'svc:x:y:reload'] }], ['svc:x:y']);
    expect(p.notifications).to.deep.equal([
      { from: 'a:1', to: 'svc:x:y', signal: 'refresh' },
      { from: 'a:1', to: 'svc:x:y', signal: 'reload' },
    ]);
  });

  it('refuses references to resources that do not exist, naming the file and line', () => {
    expect(() => plan(['a:1', { before: ['b:2'] }], ['c:3', { notify: ['d:4:restart'] }], ['e:5', { subscribe: ['zz'] }]))
      .to.throw(/s\.hcl:0: a:1: before names "b:2", which is not a resource[\s\S]*s\.hcl:1: c:3: notify "d:4:restart": "d:4" is not a resource[\s\S]*s\.hcl:2: e:5: subscribe names "zz"/);
    expect(() => plan(['a:1', { notify: ['a:1:bad signal'] }])).to.throw(/not a valid signal name/);
  });

  it('reports a cycle as a loop, starting at the earliest resource', () => {
    expect(() => plan(['pkg:a', { before: ['service:b'] }], ['service:b', { before: ['file:c'] }], ['file:c', { before: ['pkg:a'] }], ['x:d']))
      .to.throw('dependency cycle: pkg:a -> service:b -> file:c -> pkg:a');
    expect(() => plan(['pkg:a', { after: ['pkg:a'] }])).to.throw('dependency cycle: pkg:a -> pkg:a');
    expect(() => plan(['pkg:a', { notify: ['service:b'] }], ['service:b', { before: ['pkg:a'] }])).to.throw('pkg:a -> service:b -> pkg:a');
  });

  it('orders a path resource after the one of the same runner that manages its nearest parent directory', () => {
    const p = plan(['file:/etc/app/conf.d/a.conf'], ['file:/etc/app/x'], ['file:/etc/app'], ['file:/etc/app/conf.d'], ['line:/etc/app/x'], ['file:/etc/app/conf.d/../other']);
    expect(p.order).to.deep.equal(['file:/etc/app', 'file:/etc/app/x', 'file:/etc/app/conf.d', 'file:/etc/app/conf.d/a.conf', 'line:/etc/app/x', 'file:/etc/app/conf.d/../other']);
    expect(p.graph.edge('file:/etc/app/conf.d', 'file:/etc/app/conf.d/a.conf', 'autorequire:autorequire')).to.equal('autorequire');
    expect(p.graph.hasEdge('file:/etc/app', 'file:/etc/app/conf.d/a.conf')).to.equal(false, 'only the nearest managed parent');
    expect(p.graph.hasEdge('file:/etc/app', 'line:/etc/app/x')).to.equal(false, 'only the same runner');
    expect(() => plan(['file:/a/b', { before: ['file:/a'] }], ['file:/a'])).to.throw('dependency cycle: file:/a/b -> file:/a -> file:/a/b');
  });

  it('prints DOT with RREF labels in apply order and edges labelled by kind', () => {
    const dot = toDot(plan(['pkg:nginx', { notify: ['service:nginx:restart'] }], ['service:nginx'], ['file:/a "b"', { before: ['pkg:nginx'] }]));
    expect(dot).to.contain('"file:/a \\"b\\"" [label="1. file:/a \\"b\\""];');
    expect(dot).to.contain('"pkg:nginx" [label="2. pkg:nginx"];');
    expect(dot).to.contain('"pkg:nginx" -> "service:nginx" [label="notify restart"];');
    expect(dot).to.contain('"file:/a \\"b\\"" -> "pkg:nginx" [label="before"];');
    expect(dot.startsWith('digraph govern {')).to.equal(true);
  });
});
