// The systemd provider: the system-scope command lines (recorded: systemd is not PID 1 here), and
// a real systemd user manager driven through runners/service with scope = "user", checked with
// systemctl's own is-active and is-enabled.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunOptions, RunResult } from '../../../src/shared/process.js';
import { systemdProvider } from '../../../src/runners/lib/systemd/systemctl.js';
import { processAlive } from '../../support/proc.js';
import { applied, runService } from './helpers.js';
import { UserManager } from './support/user-manager.js';
import { hostExclusive } from '../../support/host-lock.js';

function recorder(answer: Partial<RunResult> = {}) {
  const commands: string[][] = [];
  const run = async (command: string, args: string[], _options?: RunOptions): Promise<RunResult> => {
    commands.push([command, ...args]);
    return { code: 0, signal: null, stdout: '', stderr: '', timedOut: false, overflowed: false, durationMs: 0, ...answer };
  };
  return { commands, context: { env: {}, log: () => undefined, run } };
}

describe('service runner, systemd provider command lines (recorded, not run) #once', () => {
  it('calls systemctl for the system scope without --user, non-interactive, the name after --', async () => {
    const { commands, context } = recorder({ stdout: 'active\n' });
    const provider = systemdProvider(context, 'system');
    await provider.status('nginx');
    for (const verb of ['start', 'stop', 'restart', 'reload', 'enable', 'disable'] as const) await provider[verb]('nginx');
    expect(commands).to.deep.equal([
      ['systemctl', '--no-ask-password', 'is-active', '--', 'nginx'],
      ['systemctl', '--no-ask-password', 'is-enabled', '--', 'nginx'],
      ['systemctl', '--no-ask-password', 'start', '--', 'nginx'],
      ['systemctl', '--no-ask-password', 'stop', '--', 'nginx'],
      ['systemctl', '--no-ask-password', 'restart', '--', 'nginx'],
      ['systemctl', '--no-ask-password', 'reload', '--', 'nginx'],
      ['systemctl', '--no-ask-password', 'enable', '--', 'nginx'],
      ['systemctl', '--no-ask-password', 'disable', '--', 'nginx'],
    ]);
  });

  it('differs for the user scope only by --user', async () => {
    const { commands, context } = recorder();
    await systemdProvider(context, 'user').start('app');
    expect(commands).to.deep.equal([['systemctl', '--user', '--no-ask-password', 'start', '--', 'app']]);
  });

  it('never runs daemon-reload', async () => {
    const { commands, context } = recorder({ stdout: 'active\n' });
    const provider = systemdProvider(context, 'system');
    await provider.status('nginx');
    await provider.enable('nginx');
    expect(commands.flat()).to.not.include('daemon-reload');
  });
});

const UNIT = 'govern-test-systemd';

describe('service runner, systemd provider (real systemd --user manager) #once', function () {
  hostExclusive();
  this.timeout(120_000);
  const manager = new UserManager();
  let logDir: string;
  let actionLog: string;

  const unit = (extra = '', install = true) => `[Unit]
Description=govern service runner test daemon
[Service]
ExecStartPre=/bin/sh -c 'echo start >> ${actionLog}'
ExecStart=/bin/sleep 100000
ExecStopPost=/bin/sh -c 'echo stop >> ${actionLog}'
${extra}
${install ? '[Install]\nWantedBy=default.target\n' : ''}`;
  const withReload = () => unit(`ExecReload=/bin/sh -c 'echo reload >> ${actionLog}'`);

  before(async () => {
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-test-systemd-'));
    actionLog = path.join(logDir, 'actions');
    await manager.start();
  });

  beforeEach(async () => {
    await manager.writeUnit(`${UNIT}.service`, withReload());
    await manager.systemctl('disable', '--now', UNIT);
    await manager.systemctl('reset-failed', UNIT);
    fs.rmSync(actionLog, { force: true });
  });

  after(async () => {
    await manager.stop();
    if (logDir) fs.rmSync(logDir, { recursive: true, force: true });
  });

  const env = () => manager.env;
  const user = (...args: string[]) => ['scope=user', ...args];
  const isActive = async () => (await manager.systemctl('is-active', UNIT)).stdout.trim();
  const isEnabled = async () => (await manager.systemctl('is-enabled', UNIT)).stdout.trim();
  const actions = () => (fs.existsSync(actionLog) ? fs.readFileSync(actionLog, 'utf8').split('\n').filter((l) => l !== '') : []);
  async function started(): Promise<number> {
    await manager.mustSucceed('start', UNIT);
    fs.rmSync(actionLog, { force: true });
    const pid = await manager.mainPid(UNIT);
    expect(processAlive(pid)).to.equal(true);
    return pid;
  }

  it('has a real manager: is-system-running answers running or degraded', async () => {
    expect((await manager.systemctl('is-system-running')).stdout.trim()).to.be.oneOf(['running', 'degraded']);
  });

  describe('the idempotency table', () => {
    it('ensure running, stopped: starts it', async () => {
      expect(await isActive()).to.equal('inactive');
      expect(await applied(UNIT, user('ensure=running'), env())).to.deep.include({ changed: true, message: 'started' });
      expect(await isActive()).to.equal('active');
      expect(processAlive(await manager.mainPid(UNIT))).to.equal(true);
      expect(actions()).to.deep.equal(['start']);
    });

    it('ensure running, running: nothing', async () => {
      const pid = await started();
      expect(await applied(UNIT, user('ensure=running'), env())).to.deep.include({ changed: false, message: 'running' });
      expect(await manager.mainPid(UNIT)).to.equal(pid);
      expect(actions()).to.deep.equal([]);
    });

    it('ensure stopped, running: stops it', async () => {
      const pid = await started();
      expect(await applied(UNIT, user('ensure=stopped', 'provider=systemd'), env())).to.deep.include({ changed: true, message: 'stopped' });
      expect(await isActive()).to.equal('inactive');
      expect(processAlive(pid)).to.equal(false);
    });

    it('ensure stopped, stopped: nothing', async () => {
      expect(await applied(UNIT, user('ensure=stopped'), env())).to.deep.include({ changed: false, message: 'stopped' });
      expect(await isActive()).to.equal('inactive');
    });

    it('state = "..." is the same as ensure; ensure defaults to running', async () => {
      expect(await applied(UNIT, user(), env())).to.deep.include({ changed: true, message: 'started' });
      expect(await applied(UNIT, user('state=running'), env())).to.deep.include({ changed: false });
      expect(await applied(UNIT, user('state=stopped'), env())).to.deep.include({ changed: true, message: 'stopped' });
      expect(await isActive()).to.equal('inactive');
    });

    it('enable true, disabled: enables', async () => {
      expect(await isEnabled()).to.equal('disabled');
      expect(await applied(UNIT, user('ensure=stopped', 'enable=true'), env())).to.deep.include({ changed: true, message: 'enabled' });
      expect(await isEnabled()).to.equal('enabled');
      expect(fs.existsSync(path.join(manager.unitDir, 'default.target.wants', `${UNIT}.service`))).to.equal(true);
    });

    it('enable true, enabled: nothing', async () => {
      await manager.mustSucceed('enable', UNIT);
      expect(await applied(UNIT, user('ensure=stopped', 'enable=true'), env())).to.deep.include({ changed: false, message: 'stopped, enabled' });
      expect(await isEnabled()).to.equal('enabled');
    });

    it('enable false, enabled: disables', async () => {
      await manager.mustSucceed('enable', UNIT);
      expect(await applied(UNIT, user('ensure=stopped', 'enable=false'), env())).to.deep.include({ changed: true, message: 'disabled' });
      expect(await isEnabled()).to.equal('disabled');
    });

    it('enable false, disabled: nothing', async () => {
      expect(await applied(UNIT, user('ensure=stopped', 'enable=false'), env())).to.deep.include({ changed: false, message: 'stopped, disabled' });
      expect(await isEnabled()).to.equal('disabled');
    });

    it('enable unset: the boot configuration is left alone, enabled or disabled', async () => {
      await manager.mustSucceed('enable', UNIT);
      expect(await applied(UNIT, user('ensure=running'), env())).to.deep.include({ changed: true, message: 'started' });
      expect(await isEnabled()).to.equal('enabled');
      await manager.mustSucceed('disable', UNIT);
      expect(await applied(UNIT, user('ensure=stopped'), env())).to.deep.include({ changed: true, message: 'stopped' });
      expect(await isEnabled()).to.equal('disabled');
    });
  });

  describe('both phases', () => {
    it('starts then enables, stops then disables', async () => {
      expect(await applied(UNIT, user('ensure=running', 'enable=true'), env())).to.deep.include({ changed: true, message: 'started; enabled' });
      expect([await isActive(), await isEnabled()]).to.deep.equal(['active', 'enabled']);
      expect(await applied(UNIT, user('ensure=stopped', 'enable=false'), env())).to.deep.include({ changed: true, message: 'stopped; disabled' });
      expect([await isActive(), await isEnabled()]).to.deep.equal(['inactive', 'disabled']);
    });
  });

  describe('notification mode', () => {
    for (const signal of ['refresh', 'restart']) {
      it(`${signal}: a running service restarts (a new main process)`, async () => {
        const pid = await started();
        expect(await applied(UNIT, user('ensure=running'), { ...env(), GOVERN_SIGNAL: signal })).to.deep.include({ changed: true, message: 'restarted' });
        const now = await manager.mainPid(UNIT);
        expect(now).to.not.equal(pid);
        expect(processAlive(now)).to.equal(true);
        expect(processAlive(pid)).to.equal(false);
        expect(actions()).to.deep.equal(['stop', 'start']);
      });

      it(`${signal}: a stopped service with ensure running is started, not restarted`, async () => {
        expect(await applied(UNIT, user('ensure=running'), { ...env(), GOVERN_SIGNAL: signal })).to.deep.include({ changed: true, message: 'started' });
        expect(await isActive()).to.equal('active');
        expect(actions()).to.deep.equal(['start']);
      });
    }

    it('refresh with ensure stopped is ignored', async () => {
      const pid = await started();
      const run = await applied(UNIT, user('ensure=stopped'), { ...env(), GOVERN_SIGNAL: 'refresh' });
      expect(run).to.deep.include({ changed: false, message: 'refresh ignored: ensure is stopped' });
      expect(await manager.mainPid(UNIT)).to.equal(pid);
      expect(actions()).to.deep.equal([]);
    });

    it('reload: systemctl reload, same main process', async () => {
      const pid = await started();
      expect(await applied(UNIT, user(), { ...env(), GOVERN_SIGNAL: 'reload' })).to.deep.include({ changed: true, message: 'reloaded' });
      expect(await manager.mainPid(UNIT)).to.equal(pid);
      expect(actions()).to.deep.equal(['reload']);
    });

    it('reload: fails clearly for a unit without ExecReload', async () => {
      await manager.writeUnit(`${UNIT}.service`, unit());
      await started();
      const run = await runService(UNIT, user(), { ...env(), GOVERN_SIGNAL: 'reload' });
      expect(run.code).to.equal(1);
      expect(run.message).to.include(`systemctl --user --no-ask-password reload -- ${UNIT} failed`);
      expect(run.message).to.include(`service ${UNIT} does not support reload (its unit has no ExecReload=)`);
    });

    it('start and stop do what they say', async () => {
      expect(await applied(UNIT, user('ensure=stopped'), { ...env(), GOVERN_SIGNAL: 'start' })).to.deep.include({ changed: true, message: 'started' });
      expect(await isActive()).to.equal('active');
      expect(await applied(UNIT, user(), { ...env(), GOVERN_SIGNAL: 'stop' })).to.deep.include({ changed: true, message: 'stopped' });
      expect(await isActive()).to.equal('inactive');
      expect(await applied(UNIT, user(), { ...env(), GOVERN_SIGNAL: 'stop' })).to.deep.include({ changed: false, message: 'already stopped' });
    });
  });

  describe('noop', () => {
    it('reports what it would do and does none of it', async () => {
      const run = await applied(UNIT, user('ensure=running', 'enable=true'), { ...env(), GOVERN_NOOP: '1' });
      expect(run).to.deep.include({ changed: true, message: 'Would have started; Would have enabled' });
      expect([await isActive(), await isEnabled()]).to.deep.equal(['inactive', 'disabled']);
      const pid = await started();
      expect((await applied(UNIT, user(), { ...env(), GOVERN_NOOP: '1', GOVERN_SIGNAL: 'restart' })).message).to.equal('Would have restarted');
      expect((await applied(UNIT, user('ensure=stopped'), { ...env(), GOVERN_NOOP: '1' })).message).to.equal('Would have stopped');
      expect(await manager.mainPid(UNIT)).to.equal(pid);
      expect(actions()).to.deep.equal([]);
    });
  });

  describe('failures', () => {
    it('names the running dimension when the service does not stay up', async () => {
      // A oneshot's start succeeds once its command has run, and then the unit is inactive.
      await manager.writeUnit(`${UNIT}.service`, unit('Type=oneshot').replace('ExecStart=/bin/sleep 100000', 'ExecStart=/bin/true'));
      const run = await runService(UNIT, user('ensure=running'), env());
      expect(run.code).to.equal(1);
      expect(run.message).to.equal(`service ${UNIT} did not reach the desired state: running state is stopped, wanted running`);
    });

    it('names the enabled dimension when a static unit cannot be disabled', async () => {
      await manager.writeUnit(`${UNIT}.service`, unit('', false));
      expect(await isEnabled()).to.equal('static');
      const run = await runService(UNIT, user('ensure=stopped', 'enable=false'), env());
      expect(run.code).to.equal(1);
      expect(run.message).to.equal(`service ${UNIT} did not reach the desired state: enabled state is enabled, wanted disabled`);
    });

    it('names a unit that does not exist', async () => {
      const run = await runService('govern-test-no-such-unit', user(), env());
      expect(run.code).to.equal(1);
      expect(run.message).to.match(/^service govern-test-no-such-unit not found: no user unit file for it/);
    });

    it('chooses systemd by itself while /run/systemd/system exists (here: the system manager, which is not running)', async () => {
      const run = await runService(UNIT, [], env());
      expect(run.code).to.equal(1);
      expect(run.message).to.include(`systemctl --no-ask-password is-active -- ${UNIT} failed`);
    });

    it('explains a user scope without a reachable manager', async () => {
      const run = await runService(UNIT, user(), { ...env(), XDG_RUNTIME_DIR: '/nonexistent' });
      expect(run.code).to.equal(1);
      expect(run.message).to.include('scope = "user" needs a running `systemd --user` manager');
    });
  });
});
