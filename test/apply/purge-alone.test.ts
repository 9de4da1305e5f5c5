// The scheduler applies a purging resource alone, even with several jobs: whatever comes before it in
// apply order has finished when it starts, and nothing after it starts before it has finished. The
// calls are in-process fakes that only record when they start and end (the real runners' side of
// this is test/runners/file/purge-writes.test.ts, through govern run with GOVERN_JOBS=4).
import { expect } from 'chai';
import { applyPlan } from '../../src/apply/apply.js';
import { buildResourceGraph } from '../../src/graph/resource-graph.js';
import type { Resource } from '../../src/state/resource.js';
import type { Call, CallResult } from '../../src/state/runner-call.js';

function res(ref: string, index: number, attrs: Resource['attrs'] = {}, after: string[] = []): Resource {
  const [type, ...rest] = ref.split(':');
  return {
    ref, type, name: rest.join(':'), attrs,
    links: { before: [], after, notify: [], subscribe: [] },
    tags: [], at: { file: 's.hcl', line: index + 1 }, file: 's.hcl', index, stateDir: '/',
  };
}

/** Applies the resources with `jobs` slots, each call a 5 ms wait; the start and end of each call, in order, and the statuses. */
async function applied(resources: Resource[], jobs: number, fail: string[] = []): Promise<{ events: string[]; statuses: Record<string, string> }> {
  const events: string[] = [];
  const runners = new Map(['cron', 'file', 'pkg'].map((t) => [t, { executable: `/fake/${t}` }]));
  const reports = await applyPlan(buildResourceGraph(resources), {
    jobs,
    runners,
    async call(call: Call): Promise<CallResult> {
      events.push(`start ${call.resource.ref}`);
      await new Promise((r) => setTimeout(r, 5));
      events.push(`end ${call.resource.ref}`);
      return { ok: !fail.includes(call.resource.ref), changed: false, message: '', log: [], durationMs: 5 };
    },
  });
  return { events, statuses: Object.fromEntries([...reports].map(([ref, r]) => [ref, r.status])) };
}

describe('apply: a purge runs alone, whatever --jobs says (fake in-process calls) #once', () => {
  it('independent resources around a purge: the ones before finish first, the ones after wait for it', async () => {
    const { events } = await applied(
      [res('pkg:a', 0), res('cron:job', 1), res('file:/etc/cron.d', 2, { ensure: 'directory', purge: true }), res('cron:later', 3), res('pkg:b', 4)],
      4,
    );
    const at = (e: string) => events.indexOf(e);
    expect(at('start file:/etc/cron.d')).to.be.greaterThan(Math.max(at('end pkg:a'), at('end cron:job')));
    expect(Math.min(at('start cron:later'), at('start pkg:b'))).to.be.greaterThan(at('end file:/etc/cron.d'));
    // Away from the purge, --jobs still applies several at once.
    expect(at('start cron:job')).to.be.lessThan(at('end pkg:a'));
    expect(at('start pkg:b')).to.be.lessThan(at('end cron:later'));
  });

  it('a purge defined first: nothing starts beside it', async () => {
    const { events } = await applied([res('file:/etc/cron.d', 0, { ensure: 'directory', purge: true }), res('cron:job', 1), res('pkg:a', 2)], 4);
    expect(events.slice(0, 2)).to.deep.equal(['start file:/etc/cron.d', 'end file:/etc/cron.d']);
  });

  it('a purge skipped after a failure still lets what follows run, and the failure skips only its dependents', async () => {
    const { statuses } = await applied(
      [res('pkg:a', 0), res('file:/srv', 1, { ensure: 'directory', purge: true }, ['pkg:a']), res('pkg:b', 2)],
      4,
      ['pkg:a'],
    );
    expect(statuses).to.deep.equal({ 'pkg:a': 'failed', 'file:/srv': 'skipped', 'pkg:b': 'unchanged' });
  });

  it('without a purge, independent resources overlap as before', async () => {
    const { events } = await applied([res('pkg:a', 0), res('pkg:b', 1), res('pkg:c', 2)], 4);
    expect(events.slice(0, 3)).to.deep.equal(['start pkg:a', 'start pkg:b', 'start pkg:c']);
  });
});
