// Staged rollout in pull mode (docs/rollout-stages.md): real git, a real nats-server, the other hosts
// simulated by putting their records as they would publish them. A host of a later stage pulls a
// new commit only once the earlier stages hold it healthy (for `after`); a commit a canary reverted
// is refused fleet-wide; rollout.hcl without a fleet is an error at its line.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { govern } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { tree } from '../support/state-tree.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { gitLab, type GitLab } from '../pull/git-lab.js';
import { fleet, putHosts, putRaw, readKey, simulatedRun } from './support.js';
import type { HostRun } from '../../src/fleet/host-record.js';

const ROLLOUT = 'stages = [\n  { where = "canary=true" },\n  { where = "role=web", after = "2s" },\n  {},\n]\n';
const stateFile = (n: number) => `pkg "p${n}" {}\n`;

describe('staged rollout in pull mode', function () {
  this.timeout(120_000);
  let nats: NatsServer;
  let lab: GitLab;
  let place: string;
  beforeEach(async () => {
    nats = await startNats();
    lab = await gitLab();
    place = tempDir('govern-stages-');
  });
  afterEach(stopAllNats);

  /** `govern pull` as the host `name` of the fleet, into its own DIR. */
  const pull = (name: string, fleetUrl: string | undefined = nats.url) =>
    govern(['pull', '--var-dir', path.join(place, name, 'var'), ...(fleetUrl ? ['--fleet-url', fleetUrl, '--fleet-name', name] : []), lab.bare, path.join(place, name, 'states')], {
      env: { GOVERN_FLEET_URL: '' },
    });
  const at = (name: string) => path.basename(fs.realpathSync(path.join(place, name, 'states')));
  const lastPull = (name: string) => JSON.parse(fs.readFileSync(path.join(place, name, 'var', 'last-pull.json'), 'utf8')) as { outcome: string; current: string; commit: string; message?: string };

  /** Two commits, the first pulled by web2 (a first pull waits for no stage), and the fleet's facts. */
  async function twoCommits(): Promise<{ good: string; next: string }> {
    const good = await lab.commit({ 'a.hcl': stateFile(1), 'rollout.hcl': ROLLOUT }, 'unsigned');
    await putHosts(nats.url, [
      { name: 'canary1', facts: { canary: 'true', role: 'web' }, run: simulatedRun('canary1', { commit: good }) },
      { name: 'web1', facts: { role: 'web' }, run: simulatedRun('web1', { commit: good }) },
      { name: 'web2', facts: { role: 'web' }, run: simulatedRun('web2', { commit: good }) },
      { name: 'db1', facts: { role: 'db' }, run: simulatedRun('db1', { commit: good }) },
    ]);
    const first = await pull('web2');
    expect(first.code, first.stderr).to.equal(0);
    expect(at('web2')).to.equal(good);
    const next = await lab.commit({ 'a.hcl': stateFile(2), 'rollout.hcl': ROLLOUT }, 'unsigned');
    return { good, next };
  }

  it('a commit the canary reverted stops every later stage and is refused fleet-wide; the watch exits non-zero', async () => {
    const { good, next } = await twoCommits();
    const canaryRun = { ...simulatedRun('canary1', { commit: good }), reverted: { from: next, to: good, reason: 'health check "nginx answers" failed' }, health: { passed: 0, failed: 1, failures: ['nginx answers'] } };
    await putRaw(nats.url, 'govern_runs', 'canary1', JSON.stringify(canaryRun));

    const web = await pull('web2');
    expect(web.code, web.stdout).to.equal(1);
    expect(web.stderr).to.include(`commit ${next} is quarantined: canary1 reverted it`);
    expect(at('web2')).to.equal(good);
    expect(lastPull('web2')).to.include({ outcome: 'refused', current: good, commit: next });
    // Nor does any other host take it, on its first pull either: quarantined for the whole fleet.
    for (const host of ['canary2', 'db1']) {
      const r = await pull(host);
      expect(r.code, `${host}: ${r.stdout}`).to.equal(1);
      expect(r.stderr).to.include('is quarantined');
      expect(fs.existsSync(path.join(place, host, 'states'))).to.equal(false);
    }
    // Quarantined still once the canary's next run no longer says reverted: the commit is in its quarantined list.
    await putRaw(nats.url, 'govern_runs', 'canary1', JSON.stringify({ ...simulatedRun('canary1', { commit: good }), quarantined: [next] }));
    expect((await pull('web2')).stderr).to.include('is quarantined');

    await putRaw(nats.url, 'govern_runs', 'canary1', JSON.stringify(canaryRun));
    const watch = await fleet(nats.url, ['--watch', '--until-commit', next, '--timeout', '60s']);
    expect(watch.code, watch.stdout).to.equal(2);
    expect(watch.stdout).to.include(`${next} reverted on canary1: the staged rollout stops`);
    expect(watch.stdout).to.match(/canary1: reverted from [0-9a-f]{12} to [0-9a-f]{12} \(health check "nginx answers" failed\)/);
    // The fleet's check says what canary1's own govern status says: CRITICAL until a newer commit succeeds.
    const seen = await fleet(nats.url);
    expect(seen.code, seen.stdout).to.equal(2);
    expect(seen.stdout).to.match(/^GOVERN FLEET CRITICAL - 1 returned to their last good commit \(canary1\) \| .* reverted=1;;0;0\n/);
    expect(seen.stdout).to.match(/\ncanary1 +reverted /);
  });

  it('a healthy canary lets the next stage pull after the hold time, not before', async () => {
    const { good, next } = await twoCommits();
    const before = await pull('web2');
    expect(before.code, before.stderr).to.equal(0);
    expect(before.stdout).to.equal(`${path.join(place, 'web2', 'states')}: stays at ${good}, ${next} held: stage 2 (role=web): waiting for canary1 to run commit ${next} healthy\n`);
    expect(at('web2')).to.equal(good);
    expect(lastPull('web2')).to.include({ outcome: 'held', current: good, commit: next });
    // The canary's own pull is not held: it is the first stage.
    expect((await pull('canary1')).code).to.equal(0);
    expect(at('canary1')).to.equal(next);

    const healthySince = Date.now();
    await putRaw(nats.url, 'govern_runs', 'canary1', JSON.stringify({ ...simulatedRun('canary1', { commit: next, endedAgoMs: 0 }), healthy_since: new Date(healthySince).toISOString(), stage: 1, health: { passed: 2, failed: 0, failures: [] } }));
    const held = await pull('web2');
    expect(held.code).to.equal(0);
    expect(held.stdout).to.match(/held: stage 2 \(role=web\): canary1 must hold commit [0-9a-f]+ healthy for 2s/);
    // Pulled as a timer would, until the hold is over: each pull either holds or switches.
    let moved: number | undefined;
    for (const deadline = Date.now() + 60_000; moved === undefined && Date.now() < deadline; ) {
      const r = await pull('web2');
      expect(r.code, r.stderr).to.equal(0);
      if (at('web2') === next) moved = Date.now();
      else await sleep(200);
    }
    expect(moved, 'web2 never took the commit').to.not.equal(undefined);
    expect(moved! - healthySince).to.be.at.least(2_000);
    expect(lastPull('web2')).to.include({ outcome: 'pulled', current: next });

    const table = await fleet(nats.url);
    expect(table.stdout).to.match(/\ncanary1 +ok +\S+ +0 +0 +1 +[0-9a-f]{12} /);
  });

  it('govern status says the pulls are held: OK with the note, WARNING past --max-held, counted from the first held pull', async () => {
    const { next } = await twoCommits();
    const t = tree({});
    const varDir = path.join(place, 'web2', 'var');
    const ran = await govern(['run', path.join(place, 'web2', 'states'), '--runners-dir', t.runners, '--facts-dir', t.facts, '--var-dir', varDir, '--fleet-url', nats.url, '--fleet-name', 'web2']);
    expect(ran.code, ran.stderr + ran.stdout).to.equal(0);
    expect((await pull('web2')).stdout).to.include(`${next} held`);
    const first = JSON.parse(fs.readFileSync(path.join(varDir, 'last-pull.json'), 'utf8')) as { at: string; held_since: string; expected_hold_seconds: number };
    expect(first.held_since).to.equal(first.at);
    // web2 has published no facts here, so it is in the last stage ({}): the afters (2s) and a pull
    // period for each of the two stages before it; under 6h, so the bound stays 6h (pull_held below).
    expect(first.expected_hold_seconds).to.equal(7202);
    const status = (extra: string[] = []) => govern(['status', '--var-dir', varDir, ...extra], { env: { GOVERN_MAX_HELD: '' } });
    const ok = await status();
    expect(ok.code, ok.stdout).to.equal(0);
    expect(ok.stdout).to.match(new RegExp(`^GOVERN OK - the last pull, \\S+ ago, held commit ${next.slice(0, 12)} \\(held for \\S+\\): stage \\d \\([^)]+\\): waiting for canary1\\b.* to run commit ${next} healthy; last run `));
    expect(ok.stdout).to.match(/ pull_held=\d+s;21600;;0( |\n)/);
    // The next held pull keeps when the hold began: that is what --max-held bounds.
    await sleep(20);
    expect((await pull('web2')).stdout).to.include(`${next} held`);
    const second = JSON.parse(fs.readFileSync(path.join(varDir, 'last-pull.json'), 'utf8')) as { at: string; held_since: string };
    expect(second.at).to.not.equal(first.at);
    expect(second.held_since).to.equal(first.held_since);
    const warning = await status(['--max-held', '10ms']);
    expect(warning.code, warning.stdout).to.equal(1);
    expect(warning.stdout).to.match(/^GOVERN WARNING - the last pull, \S+ ago, held commit [0-9a-f]{12} \(held for \S+, longer than 10ms\): stage \d /);
    expect(warning.stdout).to.match(/ pull_held=\d+s;0;;0/);
  });

  it('rollout.hcl without a fleet is an error at its line, and mistakes in it are all said at once; the tree stays', async () => {
    await lab.commit({ 'a.hcl': stateFile(1), 'rollout.hcl': ROLLOUT }, 'unsigned');
    const r = await pull('web2', '');
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/rollout\.hcl:1 \(commit [0-9a-f]{7}\): a staged rollout needs the fleet: give govern pull --fleet-url/);
    expect(r.stderr).to.not.match(/\n\s+at /);
    expect(fs.existsSync(path.join(place, 'web2', 'states'))).to.equal(false);
    expect(lastPull('web2').outcome).to.equal('failed');

    await lab.commit({ 'a.hcl': stateFile(1), 'rollout.hcl': 'stages = [\n  { where = "canary" },\n  { wher = "role=web", after = "soon" },\n]\n' }, 'unsigned');
    const bad = await pull('web2');
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/rollout\.hcl:2 \(commit \w+\): stage 1: where: "canary" is not FACT=VALUE/);
    expect(bad.stderr).to.match(/rollout\.hcl:3 \(commit \w+\): stage 2: unknown setting "wher" \(did you mean "where"\?\)/);
    expect(bad.stderr).to.match(/rollout\.hcl:3 \(commit \w+\): stage 2: after: invalid duration "soon"/);
    expect(fs.existsSync(path.join(place, 'web2', 'states'))).to.equal(false);
  });

  it('a host publishes since when it has held its commit healthy, and its stage', async () => {
    const commit = await lab.commit({ 'a.hcl': stateFile(1), 'rollout.hcl': ROLLOUT }, 'unsigned');
    expect((await pull('canary1')).code).to.equal(0);
    const t = tree({});
    writeFile(path.join(t.facts, 'canary'), 'true');
    const run = () =>
      govern(['run', path.join(place, 'canary1', 'states'), '--runners-dir', t.runners, '--facts-dir', t.facts, '--var-dir', path.join(place, 'canary1', 'var'), '--fleet-url', nats.url, '--fleet-name', 'canary1']);
    const r1 = await run();
    expect(r1.code, r1.stderr + r1.stdout).to.equal(0);
    const first = (await readKey<HostRun>(nats.url, 'govern_runs', 'canary1'))!;
    expect(first).to.include({ commit, stage: 1, healthy_since: first.ended_at });
    expect((await run()).code).to.equal(0);
    const second = (await readKey<HostRun>(nats.url, 'govern_runs', 'canary1'))!;
    expect(second.ended_at).to.not.equal(first.ended_at);
    expect(second).to.include({ commit, stage: 1, healthy_since: first.ended_at });
  });
});
