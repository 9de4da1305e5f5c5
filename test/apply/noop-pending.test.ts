// GOVERN_NOOP_PENDING's list: what the resources a call is ordered after would change, nearest
// first, through resources that would not change, and bounded.
import { Graph } from '@dagrejs/graphlib';
import { expect } from 'chai';
import { NoopPending, PENDING_BYTES, PENDING_LIMIT } from '../../src/apply/noop-pending.js';

function graph(edges: [string, string][]): Graph {
  const g = new Graph();
  for (const [a, b] of edges) g.setEdge(a, b);
  return g;
}

describe('NoopPending #once', () => {
  it('lists the would-change ancestors, nearest first, through unchanged ones, and not the unrelated', () => {
    // user:app -> file:/srv -> file:/srv/data -> service:x;  pkg:x -> service:x;  pkg:y alone
    const g = graph([
      ['user:app', 'file:/srv'],
      ['file:/srv', 'file:/srv/data'],
      ['file:/srv/data', 'service:x'],
      ['pkg:x', 'service:x'],
    ]);
    g.setNode('pkg:y');
    const pending = new NoopPending(g);
    pending.finished('user:app', true);
    pending.finished('pkg:y', true);
    expect(pending.before('file:/srv')).to.deep.equal(['user:app']);
    pending.finished('file:/srv', false);
    expect(pending.before('file:/srv/data')).to.deep.equal(['user:app']);
    pending.finished('file:/srv/data', true);
    pending.finished('pkg:x', true);
    expect(pending.before('service:x')).to.deep.equal(['file:/srv/data', 'pkg:x', 'user:app']);
    expect(pending.before('user:app')).to.deep.equal([]);
  });

  it('names a resource reached by two paths once, and keeps at most PENDING_LIMIT', () => {
    const edges: [string, string][] = [];
    for (let i = 0; i < PENDING_LIMIT + 50; i++) edges.push([`file:/${i}`, `file:/${i + 1}`]);
    edges.push(['file:/0', `file:/${PENDING_LIMIT + 50}`]);
    const pending = new NoopPending(graph(edges));
    for (let i = 0; i < PENDING_LIMIT + 50; i++) pending.finished(`file:/${i}`, true);
    const refs = pending.before(`file:/${PENDING_LIMIT + 50}`);
    expect(refs).to.have.length(PENDING_LIMIT);
    expect(refs[0]).to.equal(`file:/${PENDING_LIMIT + 49}`);
    expect(new Set(refs).size).to.equal(refs.length);
  });

  it('keeps the list under PENDING_BYTES, so that it fits in an environment variable', () => {
    const long = (i: number) => `file:/${'d'.repeat(200)}/${i}`;
    const edges: [string, string][] = [];
    for (let i = 0; i < 600; i++) edges.push([long(i), long(i + 1)]);
    const pending = new NoopPending(graph(edges));
    for (let i = 0; i < 600; i++) pending.finished(long(i), true);
    const refs = pending.before(long(600));
    expect(refs.join('\n').length).to.be.at.most(PENDING_BYTES);
    expect(refs.length).to.be.greaterThan(300);
    expect(refs[0]).to.equal(long(599));
  });
});
