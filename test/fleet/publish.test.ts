// Publishing after a run, against a real nats-server: the run's summary and the host's facts under
// its name, never a secret/ fact or a diff; and the run unaffected (its exit status, its record, a
// bounded delay) when the server is down or does not answer.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { HostFacts, HostRun } from '../../src/fleet/host-record.js';
import { checkRun } from '../../src/fleet/published.js';
import { govern, GOVERN, shRunner } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { gitLab } from '../pull/git-lab.js';
import { fleetHost, putHosts, readKey } from './support.js';

/** stderr without the note of a run waiting for the run lock, which other tests on the machine may hold. */
const ownLines = (stderr: string) => stderr.replace(/^govern: waiting for the run of pid .*\n/gm, '');

describe('fleet: publishing after a run', () => {
  let nats: NatsServer;
  beforeEach(async () => {
    nats = await startNats();
  });
  afterEach(stopAllNats);

  it('puts the run summary into govern_runs and the facts, without secret/ ones, into govern_facts, under the fqdn', async () => {
    const host = fleetHost('web1.example.org', nats.url, { role: 'web', 'secret/token': 'hunter2' });
    const r = await host.run();
    expect(r.code, r.stderr).to.equal(0);
    expect(ownLines(r.stderr)).to.equal('');
    const run = (await readKey<HostRun>(nats.url, 'govern_runs', 'web1.example.org'))!;
    expect(run).to.include({ format: 1, host: 'web1.example.org', success: true, state: host.tree.states });
    expect(run.summary).to.include({ resources: 2, changed: 1, failed: 0 });
    expect(run).to.not.have.property('resources');
    const facts = (await readKey<HostFacts>(nats.url, 'govern_facts', 'web1.example.org'))!;
    expect(facts.facts).to.include({ role: 'web', fqdn: 'web1.example.org', 'os/name': 'Linux' });
    expect(JSON.stringify(facts)).to.not.include('hunter2');
    expect(JSON.stringify(facts)).to.not.include('secret/');
    const record = JSON.parse(fs.readFileSync(path.join(host.varDir, 'fleet-publish.json'), 'utf8'));
    expect(record).to.include({ ok: true, failures_total: 0 });
  });

  it('--fleet-name names the host instead; a failed resource is published with its ref and message', async () => {
    const host = fleetHost('ignored.example.org', nats.url, {}, { 'a.hcl': 'pkg "bad" {\n  fail = true\n}\n' });
    const r = await host.run(['--fleet-name', 'db1']);
    expect(r.code).to.equal(1);
    const run = (await readKey<HostRun>(nats.url, 'govern_runs', 'db1'))!;
    expect(run.success).to.equal(false);
    expect(run.failed).to.deep.equal([{ ref: 'pkg:bad', message: run.failed[0].message }]);
    expect(await readKey(nats.url, 'govern_runs', 'ignored.example.org')).to.equal(undefined);
  });

  it('a secret/ fact that a failing command prints is <sensitive> in the failure message published', async () => {
    const host = fleetHost('db2', nats.url, { 'secret/token': 'Pr1nted-by-cmd' }, { 'a.hcl': 'leak "x" {}\n' });
    shRunner(host.tree.runners, 'leak', `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && exit 0\necho "message=cannot: $(cat ${path.join(host.tree.facts, 'secret/token')})"\nexit 1`);
    const r = await host.run();
    expect(r.code, r.stdout + r.stderr).to.equal(1);
    const run = (await readKey<HostRun>(nats.url, 'govern_runs', 'db2'))!;
    expect(run.failed[0].message).to.contain('<sensitive>');
    expect(JSON.stringify(run)).to.not.include('Pr1nted-by-cmd');
  });

  it('a failing health check is published: success false, the health counts and failures; no health block, no health field', async () => {
    const host = fleetHost('web3', nats.url, {}, { 'a.hcl': 'pkg "a" {}\n\nhealth "answers" {\n  command = "exit 2"\n}\n' });
    const r = await host.run();
    expect(r.code).to.equal(1);
    const run = (await readKey<HostRun>(nats.url, 'govern_runs', 'web3'))!;
    expect(run.success).to.equal(false);
    expect(run.health).to.deep.equal({ passed: 0, failed: 1, failures: [`${host.tree.states}/a.hcl:3: health check "answers" failed: the command failed (exit 2)`] });
    expect(run).to.not.have.property('reverted');
    expect(checkRun('web3', run, Date.now()).ok).to.equal(true);
    const plain = fleetHost('web4', nats.url);
    expect((await plain.run()).code).to.equal(0);
    expect((await readKey<HostRun>(nats.url, 'govern_runs', 'web4'))!).to.not.have.property('health');
    // Another host's record is untrusted: bad health or reverted fields are refused.
    expect(checkRun('web3', { ...run, health: { passed: -1, failed: 0, failures: [] } }, Date.now()).ok).to.equal(false);
    expect(checkRun('web3', { ...run, reverted: { from: 'HEAD~1', to: 'x', reason: '' } }, Date.now()).ok).to.equal(false);
    expect(checkRun('web3', { ...run, reverted: { from: 'a'.repeat(40), to: 'b'.repeat(40), reason: 'r' } }, Date.now()).ok).to.equal(true);
  });

  it("a pulled tree's problems are published with the files' paths in the repository, never the pull cache's checkout", async () => {
    const lab = await gitLab();
    const place = tempDir('govern-publish-pulled-');
    const [varDir, dir] = [path.join(place, 'var'), path.join(place, 'states')];
    const pullAndRun = async (files: Record<string, string>) => {
      await lab.commit(files, 'unsigned');
      const pulled = await govern(['pull', '--var-dir', varDir, lab.bare, dir]);
      expect(pulled.code, pulled.stderr).to.equal(0);
      const r = await govern(['run', dir, '--var-dir', varDir, '--fleet-url', nats.url, '--fleet-name', 'pulled1']);
      expect(r.code, r.stdout + r.stderr).to.equal(1);
      const run = (await readKey<HostRun>(nats.url, 'govern_runs', 'pulled1'))!;
      expect(JSON.stringify(run)).to.not.include(path.join(varDir, 'pull'));
      return run;
    };
    const missing = `file "${path.join(place, 'out')}" {\n  ensure = "present"\n  source = "files/missing"\n  owner  = "root"\n  group  = "root"\n  mode   = "0644"\n}\n`;
    const stopped = await pullAndRun({ 'a.hcl': missing });
    expect(stopped.errors).to.have.length(1);
    expect(stopped.errors[0]).to.match(/must be a regular file for ensure = "present": files\/missing does not exist$/);
    const unhealthy = await pullAndRun({ 'a.hcl': 'health "answers" {\n  command = "exit 2"\n}\n' });
    expect(unhealthy.health?.failures).to.deep.equal(['a.hcl:1: health check "answers" failed: the command failed (exit 2)']);
  });

  it('a --noop run publishes nothing', async () => {
    const host = fleetHost('web2', nats.url);
    expect((await host.run(['--noop'])).code).to.equal(0);
    expect(await readKey(nats.url, 'govern_runs', 'web2')).to.equal(undefined);
  });

  it('server down: the run succeeds and is recorded, with a warning, a count, metrics and a note in govern status', async () => {
    const host = fleetHost('web3', nats.url);
    await nats.stop();
    const metrics = path.join(host.tree.dir, 'prom', 'govern.prom');
    fs.mkdirSync(path.dirname(metrics));
    for (const round of [1, 2]) {
      const r = await host.run(['--metrics-file', metrics]);
      expect(r.code, r.stderr).to.equal(0);
      expect(ownLines(r.stderr)).to.match(/^govern: the run was not published to the fleet: .+\n$/);
      const record = JSON.parse(fs.readFileSync(path.join(host.varDir, 'fleet-publish.json'), 'utf8'));
      expect(record).to.include({ ok: false, failures_total: round });
    }
    expect(fs.readFileSync(path.join(host.varDir, 'last-run.json'), 'utf8')).to.include('"host"');
    const fleetMetrics = fs.readFileSync(path.join(host.tree.dir, 'prom', 'govern-fleet.prom'), 'utf8');
    expect(fleetMetrics).to.include('govern_fleet_publish_failures_total 2\n');
    expect(fleetMetrics).to.include('govern_fleet_last_publish_success 0\n');
    const status = await govern(['status', '--var-dir', host.varDir]);
    expect(status.code, status.stdout).to.equal(1);
    expect(status.stdout).to.match(/^GOVERN WARNING - the last run was not published to the fleet \(2 failures\): .*\| /);
  });

  it('server that does not answer (stopped with SIGSTOP): the run waits --fleet-timeout, no more, and succeeds', async () => {
    const host = fleetHost('web4', nats.url);
    nats.pause();
    const r = await host.run(['--fleet-timeout', '2s']);
    nats.resume();
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.match(/not published to the fleet: .*no answer within 2 s/);
    // What the run spent on the fleet, as govern measured it: the bound, and a little for a busy machine
    // to fire the timer (the run's own wall time also holds any wait for another test's run lock).
    const record = JSON.parse(fs.readFileSync(path.join(host.varDir, 'fleet-publish.json'), 'utf8'));
    expect(record.ms).to.be.within(2_000, 3_500);
  });

  it('a host name that cannot be a key: a warning, the run unaffected', async () => {
    const host = fleetHost('web5', nats.url);
    const r = await host.run(['--fleet-name', 'a b']);
    expect(r.code).to.equal(0);
    expect(r.stderr).to.include('"a b" cannot be a fleet host name');
  });

  it('the publish is recorded under the var directory even when it is new', async () => {
    const host = fleetHost('web6', nats.url);
    writeFile(path.join(host.varDir, 'fleet-publish.json'), '{"broken":');
    const r = await host.run();
    expect(r.code).to.equal(0);
    expect(JSON.parse(fs.readFileSync(path.join(host.varDir, 'fleet-publish.json'), 'utf8'))).to.include({ ok: true, failures_total: 0 });
  });

  it('an interrupted run (SIGTERM during apply) is published as failed; the facts published before stay', async () => {
    const host = fleetHost('web7', nats.url, { role: 'web' }, { 'a.hcl': 'pkg "a" {\n  changed = true\n}\nblock "b" {\n  after = ["pkg:a"]\n}\n' });
    await putHosts(nats.url, [{ name: 'web7', facts: { role: 'web' } }]);
    const before = (await readKey<HostFacts>(nats.url, 'govern_facts', 'web7'))!;
    const pidFile = path.join(host.tree.dir, 'block.pid');
    shRunner(host.tree.runners, 'block', `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && exit 0\necho $$ > ${pidFile}.new && mv ${pidFile}.new ${pidFile}\nexec sleep 300`);
    const t = host.tree;
    const child = spawn(GOVERN, ['run', t.states, '--runners-dir', t.runners, '--facts-dir', t.facts, '--var-dir', host.varDir, '--fleet-url', nats.url], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // The blocking resource has started once its pid file is there (written whole, by a rename).
    while (!fs.existsSync(pidFile)) await new Promise((res) => setTimeout(res, 50));
    child.kill('SIGTERM');
    expect(await exited, stderr).to.equal(143);
    const run = (await readKey<HostRun>(nats.url, 'govern_runs', 'web7'))!;
    expect(run).to.include({ host: 'web7', success: false });
    expect(run.errors).to.deep.equal(['interrupted by SIGTERM']);
    expect(run.summary).to.include({ changed: 1 });
    expect(await readKey<HostFacts>(nats.url, 'govern_facts', 'web7')).to.deep.equal(before);
    expect(JSON.parse(fs.readFileSync(path.join(host.varDir, 'fleet-publish.json'), 'utf8'))).to.include({ ok: true });
  });
});
