// govern-listen.service as `make install` installs it: checked by systemd-analyze verify, then run
// under a real systemd user manager beside govern.service (both under names of this test's own),
// where `govern fleet run` asks the host to run, the listener starts the service, and the service's
// run is published: the whole loop, against a real nats-server.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { HostRun } from '../../src/fleet/host-record.js';
import { runCommand } from '../../src/shared/process.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { connect } from '@nats-io/transport-node';
import { govern, GOVERN, ROOT, shRunner } from '../support/cli.js';
import { startNats, stopAllNats } from '../support/nats.js';
import { writeFile } from '../support/tmp.js';
import { putHosts, readKey } from '../fleet/support.js';
import { tree } from '../support/state-tree.js';
import { UserManager } from '../runners/service/support/user-manager.js';
import { hostExclusive } from '../support/host-lock.js';

describe('govern-listen.service', function () {
  hostExclusive();
  this.timeout(600_000);
  let prefix: string;
  const installed = (name: string) => fs.readFileSync(path.join(prefix, 'lib/systemd/system', name), 'utf8');

  before(async () => {
    prefix = fs.mkdtempSync('/tmp/govern-fleet-listen-prefix-');
    const make = await runCommand('make', ['-C', ROOT, '-o', 'build', 'install', `PREFIX=${prefix}`], { timeoutMs: 600_000 });
    if (make.code !== 0) throw new Error(`make install: ${make.stderr}`);
  });
  after(async () => {
    await stopAllNats();
    fs.rmSync(prefix, { recursive: true, force: true });
  });

  it('is installed naming the prefix\'s govern and environment file, and passes systemd-analyze verify', async () => {
    const unit = installed('govern-listen.service');
    expect(unit).to.include(`ExecStart=${prefix}/bin/govern listen\n`);
    expect(unit).to.include(`EnvironmentFile=-${prefix}/etc/default/govern\n`);
    const verify = await runCommand('systemd-analyze', ['verify', path.join(prefix, 'lib/systemd/system/govern-listen.service')], { timeoutMs: 60_000 });
    expect(verify.code, verify.stderr).to.equal(0);
    expect(verify.stderr.trim()).to.equal('');
  });

  describe('under a real systemd user manager', () => {
    const manager = new UserManager();
    const id = `${process.pid}`;
    const serviceName = `govern-fleettest-${id}.service`;
    const listenName = `govern-fleettest-listen-${id}.service`;
    // The operator's signing key and the allowed keys file the listeners read (docs/fleet.md).
    let operator: { seed: string; allowed: string };
    before(async () => {
      await manager.start();
      const dir = fs.mkdtempSync('/tmp/govern-fleet-listen-operator-');
      const seed = path.join(dir, 'operator.nk');
      operator = { seed, allowed: writeFile(path.join(dir, 'fleet-operators'), `${(await govern(['fleet', 'key', seed])).stdout.trim()}\n`) };
    });
    after(() => manager.stop());
    const signed = (args: string[]) => govern([...args, '--sign-key', operator.seed]);

    it('govern fleet run asks, the listener starts the service, the service runs and publishes', async () => {
      const nats = await startNats();
      const t = tree({ 'a.hcl': 'pkg "a" {\n  changed = true\n}\n' });
      const varDir = path.join(t.dir, 'var');
      const env = writeFile(
        path.join(t.dir, 'default-govern'),
        [
          `GOVERN_FLEET_URL=${nats.url}`,
          'GOVERN_FLEET_NAME=web1',
          `GOVERN_LISTEN_ALLOWED_KEYS=${operator.allowed}`,
          `GOVERN_VAR_DIR=${varDir}`,
          `GOVERN_OPTIONS=--runners-dir ${t.runners} --facts-dir ${t.facts} ${t.states}`,
          `GOVERN_LISTEN_RUN_COMMAND=systemctl --user --no-block start ${serviceName}`,
          '',
        ].join('\n'),
      );
      // The installed units, with this test's environment file, under names of its own.
      const own = (text: string) => text.replace(`EnvironmentFile=-${prefix}/etc/default/govern`, `EnvironmentFile=${env}`);
      await manager.writeUnit(serviceName, own(installed('govern.service')));
      await manager.writeUnit(listenName, own(installed('govern-listen.service')));
      await manager.mustSucceed('start', listenName);
      try {
        await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }]);
        // Ready when the listener answers: a request before that would find no one (exit 2, "not listening").
        let r = await signed(['fleet', 'run', '--where', 'role=web', '--fleet-url', nats.url]);
        for (let i = 0; i < 50 && r.stdout.includes('not listening'); i++) {
          const state = (await manager.systemctl('is-active', listenName)).stdout.trim();
          if (state !== 'active' && state !== 'activating') break;
          r = await signed(['fleet', 'run', '--where', 'role=web', '--fleet-url', nats.url]);
        }
        expect(r.code, `${r.stdout}${r.stderr}`).to.equal(0);
        expect(r.stdout).to.include('web1: ok, 1 changed\n');
        const run = (await readKey<HostRun>(nats.url, 'govern_runs', 'web1'))!;
        expect(run.state).to.equal(t.states);
        expect(fs.existsSync(path.join(varDir, 'last-run.json'))).to.equal(true);
        expect(t.calls()).to.deep.equal(['pkg:a']);
      } finally {
        await manager.systemctl('stop', listenName);
      }
    });

    it('a request while the service runs (systemd merges the start into that run): the listener starts it again once that run has ended, and that run counts', async () => {
      const nats = await startNats();
      const t = tree({ 'a.hcl': 'pkg "a" {\n  changed = true\n}\nblock "b" {\n  after = ["pkg:a"]\n}\n' });
      const [started, release, asked] = ['started', 'release', 'asked'].map((name) => path.join(t.dir, name));
      // Holds the service's run until the test releases it: the timer's run, under way.
      shRunner(t.runners, 'block', `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && exit 0\ntouch ${started}\nwhile [ ! -e ${release} ]; do sleep 0.05; done`);
      const varDir = path.join(t.dir, 'var');
      const env = writeFile(
        path.join(t.dir, 'default-govern'),
        [
          `GOVERN_FLEET_URL=${nats.url}`,
          'GOVERN_FLEET_NAME=web1',
          `GOVERN_LISTEN_ALLOWED_KEYS=${operator.allowed}`,
          `GOVERN_VAR_DIR=${varDir}`,
          `GOVERN_OPTIONS=--runners-dir ${t.runners} --facts-dir ${t.facts} ${t.states}`,
          // The usual start, then a mark for the test that the listener has asked systemd.
          `GOVERN_LISTEN_RUN_COMMAND=/bin/sh -c "systemctl --user --no-block start ${serviceName} && touch ${asked}"`,
          '',
        ].join('\n'),
      );
      const own = (text: string) => text.replace(`EnvironmentFile=-${prefix}/etc/default/govern`, `EnvironmentFile=${env}`);
      await manager.writeUnit(serviceName, own(installed('govern.service')));
      await manager.writeUnit(listenName, own(installed('govern-listen.service')));
      await manager.mustSucceed('start', listenName);
      try {
        await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' } }]);
        await listening(nats.url, 'web1');
        await manager.mustSucceed('--no-block', 'start', serviceName);
        await until(() => fs.existsSync(started));
        // The change the request is about lands while that run is under way.
        writeFile(path.join(t.states, 'c.hcl'), 'pkg "c" {\n  changed = true\n}\n');
        const rollout = signed(['fleet', 'run', '--where', 'role=web', '--timeout', '2m', '--fleet-url', nats.url]);
        await until(() => fs.existsSync(asked));
        fs.writeFileSync(release, '');
        const r = await rollout;
        expect(r.code, `${r.stdout}${r.stderr}`).to.equal(0);
        expect(r.stdout).to.include('web1: ok, 2 changed\n');
        // The run under way (pkg:a), then the one the request asked for (pkg:a, pkg:c): no third. The
        // service inherits the user manager's environment, GOVERN_JOBS with it: pkg:a and pkg:c are
        // independent, so the second run may apply them in either order.
        const [first, ...second] = t.calls();
        expect([first, second.sort()]).to.deep.equal(['pkg:a', ['pkg:a', 'pkg:c']]);
      } finally {
        fs.writeFileSync(release, '');
        await manager.systemctl('stop', listenName);
        await manager.systemctl('stop', serviceName);
      }
    });

    it('the server refusing its credentials: the listener exits 1 with the reason, and the unit (Restart=on-failure) restarts it', async () => {
      const dir = fs.mkdtempSync('/tmp/govern-fleet-listen-refused-');
      const known = path.join(dir, 'known.nk');
      const stranger = path.join(dir, 'stranger.nk');
      const nats = await startNats(`authorization { users: [ { nkey: "${(await govern(['fleet', 'key', known])).stdout.trim()}" } ] }`);
      expect((await govern(['fleet', 'key', stranger])).code).to.equal(0);
      const env = writeFile(
        path.join(dir, 'default-govern'),
        [`GOVERN_FLEET_URL=${nats.url}`, `GOVERN_FLEET_CREDS=${stranger}`, 'GOVERN_FLEET_NAME=web1', `GOVERN_LISTEN_ALLOWED_KEYS=${operator.allowed}`, `GOVERN_VAR_DIR=${path.join(dir, 'var')}`, ''].join('\n'),
      );
      // The installed unit with this test's environment file; its 30 s between restarts made 1 s, so the test need not wait them out.
      const unit = installed('govern-listen.service').replace(`EnvironmentFile=-${prefix}/etc/default/govern`, `EnvironmentFile=${env}`).replace('RestartSec=30s', 'RestartSec=1s');
      expect(unit).to.include('Restart=on-failure\n');
      await manager.writeUnit(listenName, unit);
      try {
        await manager.mustSucceed('start', listenName);
        let shown = '';
        for (let i = 0; i < 600; i++) {
          shown = (await manager.systemctl('show', '-p', 'NRestarts', listenName)).stdout;
          if (/NRestarts=([2-9]|\d\d)/.test(shown)) break;
          await sleep(100);
        }
        // Restart=on-failure restarts only what failed: an exit 0 would leave it stopped.
        expect(shown).to.match(/NRestarts=([2-9]|\d\d)/);
      } finally {
        await manager.systemctl('stop', listenName);
      }
      // By hand, the same: exit 1 and the reason, no stack.
      const r = await govern(['listen', '--fleet-url', nats.url, '--fleet-creds', stranger, '--fleet-name', 'web1', '--allowed-keys', operator.allowed]);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/^govern: the fleet at nats:\/\/127\.0\.0\.1:\d+: Authorization Violation\n$/);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('credentials withdrawn while it listens (the server reloaded without its key): exit 1 with the reason, so that its unit restarts it', async () => {
      const dir = fs.mkdtempSync('/tmp/govern-fleet-listen-revoked-');
      const key = path.join(dir, 'web1.nk');
      const other = path.join(dir, 'other.nk');
      const entry = (k: string) => `authorization { users: [ { nkey: "${k}" } ] }`;
      const nats = await startNats(entry((await govern(['fleet', 'key', key])).stdout.trim()));
      const otherKey = (await govern(['fleet', 'key', other])).stdout.trim();
      const child = spawn(GOVERN, ['listen', '--fleet-url', nats.url, '--fleet-creds', key, '--fleet-name', 'web1', '--allowed-keys', operator.allowed], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      for (let i = 0; !stderr.includes('listening on govern.run.web1'); i++) {
        if (i > 600) throw new Error(`not listening: ${stderr}`);
        await sleep(100);
      }
      // The server's configuration without web1's key, reloaded.
      const conf = path.join(nats.dir, 'nats.conf');
      fs.writeFileSync(conf, fs.readFileSync(conf, 'utf8').replace(/authorization \{[^\n]*\n/, `${entry(otherKey)}\n`));
      process.kill(nats.pid, 'SIGHUP');
      expect(await exited, stderr).to.equal(1);
      expect(stderr).to.match(/govern: the fleet at nats:\/\/127\.0\.0\.1:\d+ closed the connection: Authorization Violation\n$/);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  });
});

/** Resolves once the host's listener answers on its subject (a request that is not one: nothing runs). */
async function listening(url: string, host: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await nc.request(`govern.run.${host}`, 'ready?', { timeout: 10_000 });
        return;
      } catch (e) {
        if (attempt >= 600 || !/no responders/i.test((e as Error).message)) throw e;
        await sleep(100);
      }
    }
  } finally {
    await nc.close();
  }
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; !done(); i++) {
    if (i >= 1200) throw new Error('waited 2 minutes in vain');
    await sleep(100);
  }
}
