// The stage gate's decision alone (fleet/stage-gate.ts), over bucket values as other hosts could
// publish them: what is not valid does not count, names printed are escaped and bounded.
import { expect } from 'chai';
import path from 'node:path';
import { gateVerdict } from '../../src/fleet/stage-gate.js';
import { readRollout } from '../../src/pull/rollout-file.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { simulatedRun } from './support.js';

const C = 'c'.repeat(40);
const OLD = 'a'.repeat(40);

function rollout(text: string) {
  const dir = tempDir();
  writeFile(path.join(dir, 'rollout.hcl'), text);
  return readRollout(dir)!;
}

const facts = (host: string, f: Record<string, string>) => [host, { format: 1, host, at: new Date().toISOString(), facts: f }] as const;
const run = (host: string, extra: object = {}, commit = C) => [host, { ...simulatedRun(host, { commit, endedAgoMs: 0 }), healthy_since: new Date(Date.now() - 3_600_000).toISOString(), ...extra }] as const;
const me = { host: 'web2', commit: C, first: false };

describe('the stage gate #once', () => {
  const stages = rollout('stages = [{ where = "canary=true" }, { where = "role=web", after = "30m" }, {}]\n');

  it('holds a later stage while no host of the earlier stages has published facts; lets the first stage go', () => {
    const state = { runs: new Map(), facts: new Map([facts('web2', { role: 'web' })]) };
    const v = gateVerdict(stages, state, me, Date.now());
    expect(v).to.deep.include({ kind: 'hold' });
    expect((v as { reason: string }).reason).to.include('no host of the stages before it');
    // Stage 2 waits its 30m and a pull period for its turn (rollout-file.ts, expectedHoldMs).
    expect(v).to.deep.include({ expectedMs: 30 * 60_000 + 3_600_000 });
    const canary = { runs: new Map(), facts: new Map([facts('web2', { role: 'web', canary: 'true' })]) };
    expect(gateVerdict(stages, canary, me, Date.now())).to.deep.equal({ kind: 'go' });
  });

  it('a host matching no stage waits for every stage; the hold counts from healthy_since', () => {
    const three = rollout('stages = [{ where = "canary=true" }, { where = "role=web", after = "30m" }]\n');
    const state = {
      runs: new Map([run('c1'), run('w1', { healthy_since: new Date(Date.now() - 60_000).toISOString() })]),
      facts: new Map([facts('c1', { canary: 'true' }), facts('w1', { role: 'web' }), facts('db1', { role: 'db' })]),
    };
    const v = gateVerdict(three, state, { ...me, host: 'db1' }, Date.now());
    // After the last stage: every stage's after, and a pull period per stage before it.
    expect(v).to.deep.include({ kind: 'hold', expectedMs: 30 * 60_000 + 2 * 3_600_000 });
    expect((v as { reason: string }).reason).to.match(/^no stage \(after the last\): w1 must hold commit c+ healthy for 30m \((2[89]m)(\d+s)? more\)$/);
    state.runs.set('w1', run('w1')[1]);
    expect(gateVerdict(three, state, { ...me, host: 'db1' }, Date.now())).to.deep.equal({ kind: 'go' });
  });

  it('a record that is not valid counts as not healthy; a failed health check, or a revert elsewhere, too', () => {
    const state = { runs: new Map<string, unknown>([['c1', { ...run('c1')[1], quarantined: ['not a commit'] }]]), facts: new Map([facts('c1', { canary: 'true' })]) };
    expect(gateVerdict(stages, state, me, Date.now())).to.deep.include({ kind: 'hold' });
    state.runs.set('c1', run('c1', { health: { passed: 1, failed: 1, failures: ['port 80'] } })[1]);
    expect(gateVerdict(stages, state, me, Date.now())).to.deep.include({ kind: 'hold' });
    state.runs.set('c1', run('c1')[1]);
    expect(gateVerdict(stages, state, me, Date.now())).to.deep.equal({ kind: 'go' });
    state.runs.set('db9', run('db9', { reverted: { from: C, to: OLD, reason: 'x' } }, OLD)[1]);
    expect(gateVerdict(stages, state, me, Date.now())).to.deep.equal({ kind: 'quarantined', reason: `commit ${C} is quarantined: db9 reverted it` });
  });

  it('names another host published are escaped and at most five are listed', () => {
    const state = { runs: new Map(), facts: new Map([...Array.from({ length: 7 }, (_, i) => facts(`c${i}\u001b[2J`, { canary: 'true' })), facts('web2', { role: 'web' })]) };
    // Keys with an escape cannot be KV keys, but what the snapshot gives is not trusted to be one.
    for (const [k, v] of state.facts) (v as { host: string }).host = k;
    const reason = (gateVerdict(stages, state, me, Date.now()) as { reason: string }).reason;
    expect(reason).to.not.include('\u001b');
    expect(reason).to.include('and 2 more');
  });
});
