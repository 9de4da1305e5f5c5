import { expect } from 'chai';
import { buildResourceGraph } from '../../src/graph/resource-graph.js';
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
  return buildResourceGraph(specs.map(([ref, links], i) => res(ref, links, i)));
}

describe('buildResourceGraph #once', () => {
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

  it('a subscribe with a signal says subscribe takes none, and names the resource rather than a look-alike', () => {
    expect(() => plan(['file:/etc/app.conf'], ['file:/srv/app/data'], ['service:app', { subscribe: ['file:/etc/app.conf:restart'] }])).to.throw(
      'service:app: subscribe "file:/etc/app.conf:restart": subscribe takes a resource, not a signal (it always sends refresh); write "file:/etc/app.conf", or notify = ["service:app:restart"] on file:/etc/app.conf',
    );
  });

  it('reports a cycle beside a reference to no resource: one problem hides no other', () => {
    expect(() => plan(['pkg:a', { before: ['pkg:b'] }], ['pkg:b', { before: ['pkg:a'], after: ['pkg:nope'] }]))
      .to.throw(/pkg:b: after names "pkg:nope", which is not a resource in this state tree\n.*dependency cycle: pkg:a -> pkg:b -> pkg:a$/);
  });

  it('reports a cycle as a loop, starting at the earliest resource', () => {
    expect(() => plan(['pkg:a', { before: ['service:b'] }], ['service:b', { before: ['file:c'] }], ['file:c', { before: ['pkg:a'] }], ['x:d']))
      .to.throw('dependency cycle: pkg:a -> service:b -> file:c -> pkg:a');
    expect(() => plan(['pkg:a', { after: ['pkg:a'] }])).to.throw('dependency cycle: pkg:a -> pkg:a');
    expect(() => plan(['pkg:a', { notify: ['service:b'] }], ['service:b', { before: ['pkg:a'] }])).to.throw('pkg:a -> service:b -> pkg:a');
  });

  it('adds the ordering runners ask for, unless an explicit edge joins the same two resources', () => {
    const resources = [res('file:/a/b', {}, 0), res('file:/a', {}, 1), res('file:/c', { before: ['file:/d'] }, 2), res('file:/d', {}, 3)];
    const autorequire = [{ from: 'file:/a', to: 'file:/a/b' }, { from: 'file:/d', to: 'file:/c' }];
    const p = buildResourceGraph(resources, { autorequire });
    expect(p.order).to.deep.equal(['file:/a', 'file:/a/b', 'file:/c', 'file:/d']);
    expect(p.graph.edge('file:/a', 'file:/a/b', 'autorequire:autorequire')).to.equal('autorequire');
    expect(p.graph.hasEdge('file:/d', 'file:/c'), 'the explicit before wins').to.equal(false);
  });

  it('leaves out a weak ordering the tree already reverses, directly or through other resources, instead of making a cycle', () => {
    // pkg:gnupg is needed by the repository (through a file); pkg:app comes after every repository.
    const resources = [res('apt_repository:r', { after: ['file:/k'] }, 0), res('file:/k', { after: ['pkg:gnupg'] }, 1), res('pkg:gnupg', {}, 2), res('pkg:app', {}, 3)];
    const autorequire = ['pkg:gnupg', 'pkg:app'].map((to) => ({ from: 'apt_repository:r', to, weak: true }));
    const p = buildResourceGraph(resources, { autorequire });
    expect(p.order).to.deep.equal(['pkg:gnupg', 'file:/k', 'apt_repository:r', 'pkg:app']);
    expect(p.graph.hasEdge('apt_repository:r', 'pkg:gnupg')).to.equal(false);
    expect(p.graph.edge('apt_repository:r', 'pkg:app', 'autorequire:autorequire')).to.equal('autorequire');
    // The same edge not weak makes the cycle the user must hear about.
    expect(() => buildResourceGraph(resources, { autorequire: [{ from: 'apt_repository:r', to: 'pkg:gnupg' }] })).to.throw('dependency cycle');
  });

  it('suggests the resource a reference nearly names, and splits a notify string at the right colon', () => {
    const refs = [res('exec:reload shopweb', {}, 0), res('service:nginx', {}, 1), res('pkg:a', { notify: ['exec:relaod shopweb'] }, 2), res('pkg:b', { notify: ['service:ngnix:restart'], after: ['pkg:aa'] }, 3)];
    expect(() => buildResourceGraph(refs)).to.throw(
      [
        's.hcl:2: pkg:a: notify names "exec:relaod shopweb", which is not a resource in this state tree (did you mean "exec:reload shopweb"?)',
        's.hcl:3: pkg:b: after names "pkg:aa", which is not a resource in this state tree (did you mean "pkg:a"?)',
        's.hcl:3: pkg:b: notify "service:ngnix:restart": "service:ngnix" is not a resource in this state tree (did you mean "service:nginx:restart"?)',
      ].join('\n'),
    );
  });

  it('asks whether the receiver accepts each signal, and reports a refusal at the notify or subscribe key', () => {
    const r = (ref: string, links: Partial<Resource['links']>, line: number) => ({ ...res(ref, links, line), keyAt: { notify: { file: 's.hcl', line: line + 10 }, subscribe: { file: 's.hcl', line: line + 20 } } });
    const resources = [r('exec:x', {}, 0), r('pkg:a', { notify: ['exec:x:restart'] }, 1), r('file:/b', { subscribe: ['pkg:a'] }, 2)];
    const refuseSignal = (to: Resource, signal: string) => (signal === 'refresh' && to.type === 'exec' ? undefined : `${to.type} refuses ${signal}`);
    expect(() => buildResourceGraph(resources, { refuseSignal })).to.throw('s.hcl:11: pkg:a: notify "exec:x:restart": exec refuses restart\ns.hcl:22: file:/b: subscribe "pkg:a": file refuses refresh');
  });

  describe('at scale, without recursion', () => {
    const chain = (n: number, closed: boolean) =>
      buildResourceGraph(Array.from({ length: n }, (_, i) => res(`x:r${i}`, i > 0 || closed ? { after: [`x:r${(i + n - 1) % n}`] } : {}, i)));

    it('orders a chain of 100,000 after edges', () => {
      const order = chain(100_000, false).order;
      expect(order).to.have.length(100_000);
      expect(order[0]).to.equal('x:r0');
      expect(order[99_999]).to.equal('x:r99999');
    });

    it('names a cycle of 100,000 resources, at its earliest resource', () => {
      let error: Error | undefined;
      try {
        chain(100_000, true);
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).to.match(/^s\.hcl:0: dependency cycle: x:r0 -> x:r1 -> x:r2 -> /);
      expect(error?.message).to.match(/ -> x:r99999 -> x:r0$/);
    });
  });

  it('reports every cycle, each as its shortest loop through its earliest resource', () => {
    const p = () =>
      plan(
        ['a:1', { before: ['b:2', 'c:3'] }],
        ['b:2', { before: ['c:3'] }],
        ['c:3', { before: ['a:1'] }],
        ['d:4', { before: ['e:5'] }],
        ['e:5', { before: ['d:4'] }],
      );
    expect(p).to.throw('s.hcl:0: dependency cycle: a:1 -> c:3 -> a:1\ns.hcl:3: dependency cycle: d:4 -> e:5 -> d:4');
  });

  it('prints DOT with RREF labels in apply order and edges labelled by kind', () => {
    const dot = toDot(plan(['pkg:nginx', { notify: ['service:nginx:restart'] }], ['service:nginx'], ['file:/a "b"', { before: ['pkg:nginx'] }]));
    expect(dot).to.contain('"file:/a \\"b\\"" [label="1. file:/a \\"b\\""];');
    expect(dot).to.contain('"pkg:nginx" [label="2. pkg:nginx"];');
    expect(dot).to.contain('"pkg:nginx" -> "service:nginx" [label="notify restart"];');
    expect(dot).to.contain('"file:/a \\"b\\"" -> "pkg:nginx" [label="before"];');
    expect(dot.startsWith('digraph govern {')).to.equal(true);
  });

  it('shows control characters in DOT escaped, so printing the graph cannot drive the terminal', () => {
    const dot = toDot(plan(['file:/a\u001b]0;title\u0007', {}]));
    expect(dot).to.not.match(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(dot).to.contain('[label="1. file:/a\\\\x1b]0;title\\\\x07"]');
  });
});
