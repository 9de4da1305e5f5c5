// `govern fleet run` and `govern listen` against a real nats-server: each host's listener is a real
// `govern listen` process whose --run-command is `govern run` on the host's tree (started directly,
// not through systemd: test/units/listen-unit.test.ts runs the unit). Batches wait for the previous
// one's runs, and the first failure stops the rollout.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { HostRun } from '../../src/fleet/host-record.js';
import { connect } from '@nats-io/transport-node';
import { requestSigner } from '../../src/fleet/request-signature.js';
import { govern, GOVERN, shRunner } from '../support/cli.js';
import { writeFile } from '../support/tmp.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { fleetRun, listener, operator, operators, startedRuns, stopListeners } from './listeners.js';
import { fleet, fleetHost, putHosts, readKey } from './support.js';

const GOOD = { 'a.hcl': 'pkg "a" {\n  changed = true\n}\n' };
const BAD = { 'a.hcl': 'pkg "a" {\n  fail = true\n}\n' };

describe('govern fleet run and govern listen', function () {
  this.timeout(300_000);
  let nats: NatsServer;
  beforeEach(async () => {
    nats = await startNats();
  });
  afterEach(async () => {
    await stopListeners();
    await stopAllNats();
  });

  it('asks the selected hosts, which run through their listener and publish; the others are not asked', async () => {
    const web1 = fleetHost('web1', nats.url, { role: 'web' }, GOOD);
    const web2 = fleetHost('web2', nats.url, { role: 'web' }, GOOD);
    const db1 = fleetHost('db1', nats.url, { role: 'db' }, GOOD);
    await putHosts(nats.url, [web1, web2, db1].map((h) => ({ name: h.name, facts: { role: h.name.startsWith('web') ? 'web' : 'db' } })));
    for (const h of [web1, web2, db1]) await listener(h, nats.url);
    const r = await fleetRun(nats.url, ['--where', 'role=web', '--batch', '50%']);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^batch 1 of 2: web1\nweb1: ok, 1 changed\nbatch 2 of 2: web2\nweb2: ok, 1 changed\nevery selected host \(2\) ran successfully\n$/);
    expect((await readKey<HostRun>(nats.url, 'govern_runs', 'web1'))!.success).to.equal(true);
    expect(await readKey(nats.url, 'govern_runs', 'db1')).to.equal(undefined);
    expect(db1.tree.calls()).to.deep.equal([]);
  });

  it('stops at the first failure: the failed host is named, later batches are not asked (exit 2)', async () => {
    const hosts = [fleetHost('web1', nats.url, {}, GOOD), fleetHost('web2', nats.url, {}, BAD), fleetHost('web3', nats.url, {}, GOOD)];
    await putHosts(nats.url, hosts.map((h) => ({ name: h.name, facts: { role: 'web' } })));
    for (const h of hosts) await listener(h, nats.url);
    const r = await fleetRun(nats.url, ['--where', 'role=web', '--batch', '1']);
    expect(r.code, r.stdout + r.stderr).to.equal(2);
    expect(r.stdout).to.include('web2: FAILED: its run failed (1 failed; pkg:a: ');
    expect(r.stdout).to.include('stopped: web2 failed; not asked: web3\n');
    expect(hosts[2].tree.calls()).to.deep.equal([]);
    expect(await readKey(nats.url, 'govern_runs', 'web3')).to.equal(undefined);
  });

  it('a selected host without a listener is a failure that stops the rollout; --noop lists the batches and asks none', async () => {
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }, { name: 'web2', facts: { role: 'web' } }]);
    const noop = await fleetRun(nats.url, ['--where', 'role=web', '--batch', '1', '--noop']);
    expect(noop.code).to.equal(0);
    expect(noop.stdout).to.equal('batch 1 of 2: web1\nbatch 2 of 2: web2\nwould ask 2 hosts to run (--noop: none asked)\n');
    const r = await fleetRun(nats.url, ['--where', 'role=web', '--batch', '1']);
    expect(r.code).to.equal(2);
    expect(r.stdout).to.include('web1: FAILED: not listening (no govern listen answered)\n');
    expect(r.stdout).to.include('not asked: web2\n');
  });

  it('bad input: no --where, a bad --batch, --batch without run; no host selected is exit 3', async () => {
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }]);
    // Usage errors exit 1, as every command's do (3 is "no host selected", or the fleet out of reach).
    const noWhere = await fleetRun(nats.url, []);
    expect([noWhere.code, noWhere.stderr]).to.deep.equal([1, 'govern: govern fleet run needs at least one --where FACT=VALUE (--where fqdn=HOST for one host)\n']);
    const badBatch = await fleetRun(nats.url, ['--where', 'role=web', '--batch', '0']);
    expect(badBatch.code).to.equal(1);
    expect(badBatch.stderr).to.include('--batch must be a number of hosts or a percentage');
    expect((await fleetRun(nats.url, ['--where', 'role=web', '--watch'])).code).to.equal(1);
    expect((await fleetRun(nats.url, ['--where', 'role=web', '--bogus'])).code).to.equal(1);
    expect((await fleet(nats.url, ['--batch', '2'])).stderr).to.include('--batch and --noop go with govern fleet run');
    const none = await fleetRun(nats.url, ['--where', 'role=mail']);
    expect(none.code).to.equal(3);
    expect(none.stdout).to.equal('no host matches\n');
    await nats.stop();
    const away = await fleetRun(nats.url, ['--where', 'role=web', '--fleet-timeout', '2s']);
    expect(away.code).to.equal(3);
    expect(away.stderr).to.match(/^govern: the fleet at nats:\/\/127\.0\.0\.1:\d+: connection refused/);
  });

  it('the listener refuses a request that is not one, and keeps listening', async () => {
    const web1 = fleetHost('web1', nats.url, {}, GOOD);
    await listener(web1, nats.url);
    const { connect } = await import('@nats-io/transport-node');
    const nc = await connect({ servers: nats.url });
    const reply = (await nc.request('govern.run.web1', 'hello', { timeout: 10_000 })).json<{ accepted: boolean; reason: string }>();
    await nc.close();
    expect(reply).to.deep.equal({ accepted: false, reason: 'not JSON' });
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }]);
    expect((await fleetRun(nats.url, ['--where', 'role=web'])).code).to.equal(0);
    expect(path.basename(web1.tree.calls()[0] ?? '')).to.equal('pkg:a');
  });

  it('a run under way when the request comes does not count: the host is done when a run that began after the request reports', async () => {
    const web1 = fleetHost('web1', nats.url, {}, GOOD);
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }]);
    const t = web1.tree;
    const [started, release] = [path.join(t.dir, 'started'), path.join(t.dir, 'release')];
    // Holds the run until the test releases it: the timer's run, say, under way.
    shRunner(t.runners, 'block', `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && exit 0\ntouch ${started}\nwhile [ ! -e ${release} ]; do sleep 0.05; done`);
    writeFile(path.join(t.states, 'a.hcl'), `${GOOD['a.hcl']}block "b" {\n  after = ["pkg:a"]\n}\n`);
    const l = await listener(web1, nats.url);
    const underWay = spawn(GOVERN, ['run', t.states, '--runners-dir', t.runners, '--facts-dir', t.facts, '--var-dir', web1.varDir, '--fleet-url', nats.url], { stdio: 'ignore' });
    const underWayExit = new Promise((resolve) => underWay.once('exit', resolve));
    while (!fs.existsSync(started)) await new Promise((res) => setTimeout(res, 50));
    // The change the request is about lands while that run is under way: one more resource changes.
    writeFile(path.join(t.states, 'c.hcl'), 'pkg "c" {\n  changed = true\n}\n');
    const rollout = fleetRun(nats.url, ['--where', 'role=web', '--timeout', '2m']);
    await l.said('run requested by ');
    fs.writeFileSync(release, '');
    const r = await rollout;
    await underWayExit;
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.include('web1: ok, 2 changed\n');
    expect((await readKey<HostRun>(nats.url, 'govern_runs', 'web1'))!.summary.changed).to.be.at.least(2);
  });

  it('a run command that fails is the host\'s failure at once, with the reason, not a wait for its report', async () => {
    const web1 = fleetHost('web1', nats.url, {}, GOOD);
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }, { name: 'web2', facts: { role: 'web' } }]);
    // No such unit (and on a host without systemd, no manager to ask): systemctl refuses either way.
    await listener(web1, nats.url, `systemctl --no-block start govern-fleettest-missing-${process.pid}.service`);
    const r = await fleetRun(nats.url, ['--where', 'role=web', '--batch', '1', '--timeout', '10m']);
    expect(r.code, r.stdout + r.stderr).to.equal(2);
    expect(r.stdout).to.match(new RegExp(`^web1: FAILED: could not start its run: systemctl --no-block start govern-fleettest-missing-${process.pid}\\.service failed \\(exit \\d+\\): .+$`, 'm'));
    expect(r.stdout).to.include('not asked: web2\n');
    expect(web1.tree.calls()).to.deep.equal([]);
  });

  it('with --allowed-keys the listener honours only a request signed by an allowed key, for this host, recent, and once', async () => {
    const web1 = fleetHost('web1', nats.url, {}, GOOD);
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }]);
    const [operatorKey, otherKey] = ['operator.nk', 'other.nk'].map((name) => path.join(web1.tree.dir, name));
    const operator = (await govern(['fleet', 'key', operatorKey])).stdout.trim();
    expect((await govern(['fleet', 'key', otherKey])).code).to.equal(0);
    const allowed = writeFile(path.join(web1.tree.dir, 'allowed-keys'), `# the operators\n${operator}\n`);
    await listener(web1, nats.url, undefined, ['--allowed-keys', allowed]);

    const unsigned = await fleet(nats.url, ['run', '--where', 'role=web']);
    expect(unsigned.code).to.equal(2);
    expect(unsigned.stdout).to.include('web1: FAILED: refused: not signed (this host accepts only requests signed by an allowed key)\n');
    const other = await fleetRun(nats.url, ['--where', 'role=web', '--sign-key', otherKey]);
    expect(other.code).to.equal(2);
    expect(other.stdout).to.match(/^web1: FAILED: refused: signed by U[A-Z2-7]{55}, which is not an allowed key$/m);
    expect(web1.tree.calls()).to.deep.equal([]);
    const signed = await fleetRun(nats.url, ['--where', 'role=web', '--sign-key', operatorKey]);
    expect(signed.code, signed.stdout + signed.stderr).to.equal(0);

    // By hand: the same signed request again, one signed for another host, one altered, one too old.
    const sign = requestSigner(operatorKey);
    const request = sign({ format: 1, id: 'once', requested_at: new Date().toISOString(), by: 'test' }, 'web1');
    const nc = await connect({ servers: nats.url });
    const send = async (r: object) => (await nc.request('govern.run.web1', JSON.stringify(r), { timeout: 60_000 })).json<object>();
    try {
      expect(await send(request)).to.include({ accepted: true });
      expect(await send(request)).to.deep.equal({ accepted: false, reason: 'request once was honoured already (a replay)' });
      expect(await send(sign({ ...request, id: 'elsewhere' }, 'db1'))).to.deep.equal({ accepted: false, reason: 'meant for db1, not web1' });
      expect(await send({ ...request, id: 'altered' })).to.deep.equal({ accepted: false, reason: `the signature is not ${operator}'s` });
      const old = new Date(Date.now() - 10 * 60_000).toISOString();
      expect(await send(sign({ ...request, id: 'old', requested_at: old }, 'web1'))).to.deep.equal({ accepted: false, reason: `made at ${old}, more than 5 minutes from this host's clock` });
    } finally {
      await nc.close();
    }
  });

  it('--allowed-keys that cannot be trusted or read stops the listener before it listens', async () => {
    const web1 = fleetHost('web1', nats.url, {}, GOOD);
    const open = writeFile(path.join(web1.tree.dir, 'open-keys'), 'UABC\n', 0o666);
    const r = await govern(['listen', '--fleet-url', nats.url, '--fleet-name', 'web1', '--allowed-keys', open]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`refusing the allowed keys file ${open}: `);
    const bad = writeFile(path.join(web1.tree.dir, 'bad-keys'), '# the operators\nUABC\n');
    const b = await govern(['listen', '--fleet-url', nats.url, '--fleet-name', 'web1', '--allowed-keys', bad]);
    expect(b.code).to.equal(1);
    expect(b.stderr).to.include(`${bad}:2: not a public user nkey`);
  });

  it('govern listen without --allowed-keys does not start: a request is honoured only when an operator signed it', async () => {
    const r = await govern(['listen', '--fleet-url', nats.url, '--fleet-name', 'web1']);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('govern listen needs --allowed-keys FILE (GOVERN_LISTEN_ALLOWED_KEYS)');
    expect(r.stderr).to.not.include('listening on');
  });

  it('200 requests at once: one start asked at a time, and no more runs than the requests need', async () => {
    const web1 = fleetHost('web1', nats.url, {}, GOOD);
    const t = web1.tree;
    const run = [GOVERN, 'run', t.states, '--runners-dir', t.runners, '--facts-dir', t.facts, '--var-dir', web1.varDir];
    const [log, busy] = [path.join(t.dir, 'starts'), path.join(t.dir, 'busy')];
    const pids = path.join(t.dir, 'run-pids');
    startedRuns.push(pids);
    // A start that takes a while, as systemctl may: two starts at once would both be inside it.
    const starter = writeFile(
      path.join(t.dir, 'slow-start'),
      `#!/bin/sh\nexec </dev/null >/dev/null 2>&1\nmkdir ${busy} || echo overlap >> ${log}\necho start >> ${log}\nsleep 0.3\n${run.join(' ')} &\necho $! >> ${pids}\nrmdir ${busy}\n`,
      0o755,
    );
    await listener(web1, nats.url, starter);
    await operators();
    const sign = requestSigner(operator!.seed);
    const nc = await connect({ servers: nats.url });
    try {
      const now = new Date().toISOString();
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, i) => nc.request('govern.run.web1', JSON.stringify(sign({ format: 1, id: `r${i}`, requested_at: now, by: 'test' }, 'web1')), { timeout: 120_000 })),
      );
      expect(replies.map((m) => m.json<{ accepted: boolean }>().accepted)).to.deep.equal(Array(200).fill(true));
      // Every request is answered by a run that began after the last of them: wait for it.
      const last = Math.max(...replies.map((m) => Date.parse(m.json<{ since: string }>().since)));
      for (let i = 0; ; i++) {
        const record = path.join(web1.varDir, 'last-run.json');
        const began = fs.existsSync(record) ? Date.parse((JSON.parse(fs.readFileSync(record, 'utf8')) as { started_at: string }).started_at) : 0;
        if (began >= last) break;
        if (i > 1200) throw new Error('no run began after the last request');
        await new Promise((res) => setTimeout(res, 100));
      }
    } finally {
      await nc.close();
    }
    const starts = fs.readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
    expect(starts).to.not.include('overlap');
    // The first request's start, then only the follow-up's, each asked again after a wait twice as
    // long while no run that began after the last request holds the lock (on a busy machine a run
    // may take a few seconds to get there): a handful at most, not one per request.
    expect(starts.length).to.be.within(1, 4);
  });

  it("a listener's answer is another host's text: checked, bounded and escaped before it is printed", async () => {
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }, { name: 'web2', facts: { role: 'web' } }]);
    // Not govern listen: what a host that answers as it likes could send.
    const nc = await connect({ servers: nats.url });
    try {
      nc.subscribe('govern.run.web1', { callback: (_, m) => void m.respond(JSON.stringify({ accepted: false, reason: `\x1b]0;pwned\x07${'x'.repeat(100_000)}` })) });
      nc.subscribe('govern.run.web2', { callback: (_, m) => void m.respond(JSON.stringify({ accepted: 'yes' })) });
      await nc.flush();
      const r = await fleetRun(nats.url, ['--where', 'role=web']);
      expect(r.code).to.equal(2);
      expect(r.stdout).to.not.include('\x1b');
      expect(r.stdout).to.match(/^web1: FAILED: refused: \\x1b\]0;pwned\\x07x{490}\.\.\.$/m);
      expect(r.stdout).to.include('web2: FAILED: answered with what is not a govern reply\n');
      expect(r.stdout.length).to.be.below(2_000);
    } finally {
      await nc.close();
    }
  });
});
