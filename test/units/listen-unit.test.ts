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
import { connect } from '@nats-io/transport-node';
import { govern, ROOT, shRunner } from '../support/cli.js';
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
    before(() => manager.start());
    after(() => manager.stop());

    it('govern fleet run asks, the listener starts the service, the service runs and publishes', async () => {
      const nats = await startNats();
      const t = tree({ 'a.hcl': 'pkg "a" {\n  changed = true\n}\n' });
      const varDir = path.join(t.dir, 'var');
      const env = writeFile(
        path.join(t.dir, 'default-govern'),
        [
          `GOVERN_FLEET_URL=${nats.url}`,
          'GOVERN_FLEET_NAME=web1',
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
        let r = await govern(['fleet', 'run', '--where', 'role=web', '--fleet-url', nats.url]);
        for (let i = 0; i < 50 && r.stdout.includes('not listening'); i++) {
          const state = (await manager.systemctl('is-active', listenName)).stdout.trim();
          if (state !== 'active' && state !== 'activating') break;
          r = await govern(['fleet', 'run', '--where', 'role=web', '--fleet-url', nats.url]);
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
        const rollout = govern(['fleet', 'run', '--where', 'role=web', '--timeout', '2m', '--fleet-url', nats.url]);
        await until(() => fs.existsSync(asked));
        fs.writeFileSync(release, '');
        const r = await rollout;
        expect(r.code, `${r.stdout}${r.stderr}`).to.equal(0);
        expect(r.stdout).to.include('web1: ok, 2 changed\n');
        // The run under way (pkg:a), then the one the request asked for (pkg:a, pkg:c): no third.
        expect(t.calls()).to.deep.equal(['pkg:a', 'pkg:a', 'pkg:c']);
      } finally {
        fs.writeFileSync(release, '');
        await manager.systemctl('stop', listenName);
        await manager.systemctl('stop', serviceName);
      }
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
