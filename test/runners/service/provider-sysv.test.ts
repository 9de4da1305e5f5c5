// The sysv provider against a real init script in /etc/init.d, driven through runners/service,
// checking the real daemon process and the real /etc/rc?.d links after each step.
import { expect } from 'chai';
import fs from 'node:fs';
import { runCommand, type RunOptions, type RunResult } from '../../../src/shared/process.js';
import { providerContext } from '../../../src/shared/command-runner.js';
import { sysvProvider } from '../../../src/runners/service/provider-sysv.js';
import { handle } from '../../../src/runners/kit/index.js';
import { serviceRunner } from '../../../src/runners/service/runner.js';
import { processAlive } from '../../support/proc.js';
import { applied, runService } from './helpers.js';
import { SysvScript } from './support/sysv-script.js';
import { hostExclusive } from '../../support/host-lock.js';

const NAME = 'govern-test-sysv';
const BOOT_START = ['rc2.d/S01', 'rc3.d/S01', 'rc4.d/S01', 'rc5.d/S01'].map((l) => l + NAME);
const BOOT_KILL = ['rc2.d/K01', 'rc3.d/K01', 'rc4.d/K01', 'rc5.d/K01'].map((l) => l + NAME);

describe('service runner, sysv provider (real init script) #once', function () {
  hostExclusive();
  this.timeout(60_000);
  let script: SysvScript;

  before(function () {
    // With it, Debian's service and update-rc.d hand everything to systemctl.
    if (fs.existsSync('/run/systemd/system')) {
      throw new Error('the sysv tests need /run/systemd/system absent (systemd not init), and it is present');
    }
    script = new SysvScript(NAME);
  });

  beforeEach(async () => {
    await script.remove();
    script = new SysvScript(NAME);
    script.install();
  });

  after(async () => {
    await script?.remove();
  });

  async function started(): Promise<number> {
    await script.run('start');
    const pid = script.pid();
    expect(pid, 'pid after setup start').to.be.a('number');
    expect(processAlive(pid!)).to.equal(true);
    script.clearActions();
    return pid!;
  }

  async function withLinks(state: 'enabled' | 'disabled'): Promise<void> {
    await script.updateRcd('defaults');
    if (state === 'disabled') await script.updateRcd('disable');
    script.clearActions();
  }

  describe('the idempotency table', () => {
    it('ensure running, stopped: starts it (provider chosen automatically)', async () => {
      const run = await applied(NAME, ['ensure=running']);
      expect(run).to.deep.include({ changed: true, message: 'started' });
      expect(processAlive(script.pid()!)).to.equal(true);
      expect(script.changes()).to.deep.equal(['start']);
    });

    it('ensure running, running: nothing', async () => {
      const pid = await started();
      const run = await applied(NAME, ['ensure=running']);
      expect(run).to.deep.include({ changed: false, message: 'running' });
      expect(script.pid()).to.equal(pid);
      expect(processAlive(pid)).to.equal(true);
      expect(script.changes()).to.deep.equal([]);
    });

    it('ensure stopped, running: stops it', async () => {
      const pid = await started();
      const run = await applied(NAME, ['ensure=stopped', 'provider=sysv']);
      expect(run).to.deep.include({ changed: true, message: 'stopped' });
      expect(processAlive(pid)).to.equal(false);
      expect(script.pid()).to.equal(undefined);
      expect(script.changes()).to.deep.equal(['stop']);
    });

    it('ensure stopped, stopped: nothing', async () => {
      const run = await applied(NAME, ['ensure=stopped']);
      expect(run).to.deep.include({ changed: false, message: 'stopped' });
      expect(script.changes()).to.deep.equal([]);
    });

    it('ensure defaults to running; state = "..." is the same as ensure', async () => {
      expect(await applied(NAME, [])).to.deep.include({ changed: true, message: 'started' });
      const pid = script.pid()!;
      expect(await applied(NAME, ['state=running'])).to.deep.include({ changed: false, message: 'running' });
      expect(await applied(NAME, ['state=stopped'])).to.deep.include({ changed: true, message: 'stopped' });
      expect(processAlive(pid)).to.equal(false);
    });

    it('enable true, disabled without any links: update-rc.d defaults, then enable', async () => {
      expect(script.links()).to.deep.equal([]);
      const run = await applied(NAME, ['ensure=stopped', 'enable=true']);
      expect(run).to.deep.include({ changed: true, message: 'enabled' });
      expect(script.startLinks()).to.deep.equal(BOOT_START);
      expect(script.links()).to.include.members(['rc0.d/K01' + NAME, 'rc1.d/K01' + NAME, 'rc6.d/K01' + NAME]);
    });

    it('enable true, disabled (K links): enables', async () => {
      await withLinks('disabled');
      expect(script.startLinks()).to.deep.equal([]);
      const run = await applied(NAME, ['ensure=stopped', 'enable=true']);
      expect(run).to.deep.include({ changed: true, message: 'enabled' });
      expect(script.startLinks()).to.deep.equal(BOOT_START);
    });

    it('enable true, enabled: nothing', async () => {
      await withLinks('enabled');
      const before = script.links();
      const run = await applied(NAME, ['ensure=stopped', 'enable=true']);
      expect(run).to.deep.include({ changed: false, message: 'stopped, enabled' });
      expect(script.links()).to.deep.equal(before);
    });

    it('enable false, enabled: disables (S links become K links)', async () => {
      await withLinks('enabled');
      const run = await applied(NAME, ['ensure=stopped', 'enable=false']);
      expect(run).to.deep.include({ changed: true, message: 'disabled' });
      expect(script.startLinks()).to.deep.equal([]);
      expect(script.links()).to.include.members(BOOT_KILL);
    });

    it('enable false, disabled: nothing, with K links or with no links at all', async () => {
      const run = await applied(NAME, ['ensure=stopped', 'enable=false']);
      expect(run).to.deep.include({ changed: false, message: 'stopped, disabled' });
      expect(script.links()).to.deep.equal([]);
      await withLinks('disabled');
      const before = script.links();
      expect(await applied(NAME, ['ensure=stopped', 'enable=false'])).to.deep.include({ changed: false });
      expect(script.links()).to.deep.equal(before);
    });

    it('enable unset: the boot links are left as they are, enabled or disabled', async () => {
      await withLinks('enabled');
      const enabled = script.links();
      expect(await applied(NAME, ['ensure=running'])).to.deep.include({ changed: true, message: 'started' });
      expect(await applied(NAME, ['ensure=stopped'])).to.deep.include({ changed: true, message: 'stopped' });
      expect(script.links()).to.deep.equal(enabled);
      await script.updateRcd('disable');
      const disabled = script.links();
      expect(await applied(NAME, ['ensure=running'])).to.deep.include({ changed: true, message: 'started' });
      expect(script.links()).to.deep.equal(disabled);
    });
  });

  describe('both phases', () => {
    it('starts, then enables', async () => {
      const run = await applied(NAME, ['ensure=running', 'enable=true']);
      expect(run).to.deep.include({ changed: true, message: 'started; enabled' });
      expect(processAlive(script.pid()!)).to.equal(true);
      expect(script.startLinks()).to.deep.equal(BOOT_START);
      expect(await applied(NAME, ['ensure=running', 'enable=true'])).to.deep.include({ changed: false, message: 'running, enabled' });
    });

    it('stops, then disables; running but disabled is a state of its own', async () => {
      await withLinks('enabled');
      const pid = await started();
      expect(await applied(NAME, ['ensure=running', 'enable=false'])).to.deep.include({ changed: true, message: 'disabled' });
      expect(script.pid()).to.equal(pid);
      expect(script.startLinks()).to.deep.equal([]);
      await script.updateRcd('enable');
      expect(await applied(NAME, ['ensure=stopped', 'enable=false'])).to.deep.include({ changed: true, message: 'stopped; disabled' });
      expect(processAlive(pid)).to.equal(false);
      expect(script.startLinks()).to.deep.equal([]);
    });
  });

  describe('notification mode', () => {
    for (const signal of ['refresh', 'restart']) {
      it(`${signal}: a running service restarts (a new process)`, async () => {
        const pid = await started();
        const run = await applied(NAME, ['ensure=running'], { GOVERN_SIGNAL: signal });
        expect(run).to.deep.include({ changed: true, message: 'restarted' });
        expect(script.changes()).to.deep.equal(['restart']);
        const now = script.pid()!;
        expect(now).to.not.equal(pid);
        expect(processAlive(now)).to.equal(true);
        expect(processAlive(pid)).to.equal(false);
      });

      it(`${signal}: a stopped service with ensure running is started, not restarted`, async () => {
        const run = await applied(NAME, ['ensure=running'], { GOVERN_SIGNAL: signal });
        expect(run).to.deep.include({ changed: true, message: 'started' });
        expect(script.changes()).to.deep.equal(['start']);
        expect(processAlive(script.pid()!)).to.equal(true);
      });
    }

    it('refresh with ensure stopped is ignored, running or not', async () => {
      let run = await applied(NAME, ['ensure=stopped'], { GOVERN_SIGNAL: 'refresh' });
      expect(run).to.deep.include({ changed: false, message: 'refresh ignored: ensure is stopped' });
      expect(script.pid()).to.equal(undefined);
      const pid = await started();
      run = await applied(NAME, ['ensure=stopped'], { GOVERN_SIGNAL: 'refresh' });
      expect(run).to.deep.include({ changed: false });
      expect(script.pid()).to.equal(pid);
      expect(processAlive(pid)).to.equal(true);
      expect(script.changes()).to.deep.equal([]);
    });

    it('acts only on the signal: enable is left alone', async () => {
      const pid = await started();
      await applied(NAME, ['ensure=running', 'enable=true'], { GOVERN_SIGNAL: 'refresh' });
      expect(script.pid()).to.not.equal(pid);
      expect(script.links()).to.deep.equal([]);
    });

    it("reload: runs the script's reload action, same process", async () => {
      const pid = await started();
      const run = await applied(NAME, [], { GOVERN_SIGNAL: 'reload' });
      expect(run).to.deep.include({ changed: true, message: 'reloaded' });
      expect(script.changes()).to.deep.equal(['reload']);
      expect(script.pid()).to.equal(pid);
      expect(processAlive(pid)).to.equal(true);
    });

    it('reload: a stopped service is started instead', async () => {
      expect(await applied(NAME, [], { GOVERN_SIGNAL: 'reload' })).to.deep.include({ changed: true, message: 'started' });
      expect(script.changes()).to.deep.equal(['start']);
    });

    it('reload: fails clearly when the script has no reload action', async () => {
      script.install({ reload: false });
      const pid = await started();
      const run = await runService(NAME, [], { GOVERN_SIGNAL: 'reload' });
      expect(run.code).to.equal(1);
      expect(run.message).to.include(`/etc/init.d/${NAME} does not support reload`);
      expect(run.message).to.include('service govern-test-sysv reload failed (exit 3)');
      expect(script.pid()).to.equal(pid);
    });

    it('start and stop do what they say, and nothing when already so', async () => {
      expect(await applied(NAME, ['ensure=stopped'], { GOVERN_SIGNAL: 'start' })).to.deep.include({ changed: true, message: 'started' });
      const pid = script.pid()!;
      expect(processAlive(pid)).to.equal(true);
      expect(await applied(NAME, [], { GOVERN_SIGNAL: 'start' })).to.deep.include({ changed: false, message: 'already running' });
      expect(await applied(NAME, [], { GOVERN_SIGNAL: 'stop' })).to.deep.include({ changed: true, message: 'stopped' });
      expect(processAlive(pid)).to.equal(false);
      expect(await applied(NAME, [], { GOVERN_SIGNAL: 'stop' })).to.deep.include({ changed: false, message: 'already stopped' });
      expect(script.changes()).to.deep.equal(['start', 'stop']);
    });

    it('refuses any other signal before running anything', async () => {
      const run = await runService(NAME, [], { GOVERN_SIGNAL: 'hup' });
      expect(run.code).to.equal(1);
      expect(run.stderr).to.include('service does not accept the signal "hup" (it accepts refresh, restart, reload, start, stop)');
      expect(script.actions()).to.deep.equal([]);
    });
  });

  describe('noop', () => {
    it('reports what it would do and does none of it', async () => {
      const run = await applied(NAME, ['ensure=running', 'enable=true'], { GOVERN_NOOP: '1' });
      expect(run).to.deep.include({ changed: true, message: 'Would have started; Would have enabled' });
      expect(script.pid()).to.equal(undefined);
      expect(script.links()).to.deep.equal([]);
      expect(script.changes()).to.deep.equal([]);
    });

    it('says each seed message', async () => {
      expect((await applied(NAME, ['ensure=running'], { GOVERN_NOOP: '1' })).message).to.equal('Would have started');
      await withLinks('disabled');
      expect((await applied(NAME, ['ensure=stopped', 'enable=true'], { GOVERN_NOOP: '1' })).message).to.equal('Would have enabled');
      await script.updateRcd('enable');
      expect((await applied(NAME, ['ensure=stopped', 'enable=false'], { GOVERN_NOOP: '1' })).message).to.equal('Would have disabled');
      const pid = await started();
      expect((await applied(NAME, ['ensure=stopped'], { GOVERN_NOOP: '1' })).message).to.equal('Would have stopped');
      expect((await applied(NAME, [], { GOVERN_NOOP: '1', GOVERN_SIGNAL: 'refresh' })).message).to.equal('Would have restarted');
      expect(script.pid()).to.equal(pid);
      expect(script.startLinks()).to.deep.equal(BOOT_START);
      expect(script.changes()).to.deep.equal([]);
    });

    it('reports no change when there is none', async () => {
      expect(await applied(NAME, ['ensure=stopped'], { GOVERN_NOOP: '1' })).to.deep.include({ changed: false, message: 'stopped' });
    });
  });

  describe('failures', () => {
    it('says which dimension did not reach the desired state', async () => {
      script.install({ startDoesNothing: true }); // its start succeeds and starts nothing
      const run = await runService(NAME, ['ensure=running']);
      expect(run.code).to.equal(1);
      expect(run.message).to.equal(`service ${NAME} did not reach the desired state: running state is stopped, wanted running`);
    });

    it('names a service that has no init script', async () => {
      const run = await runService('govern-test-no-such-service', []);
      expect(run.code).to.equal(1);
      expect(run.message).to.equal('service govern-test-no-such-service not found: no executable init script /etc/init.d/govern-test-no-such-service');
    });

    it('a service asked to be stopped (and not enabled) that has no init script is stopped already: a retired service', async () => {
      for (const args of [['ensure=stopped'], ['ensure=stopped', 'enable=false']]) {
        const run = await runService('govern-test-no-such-service', args);
        expect([run.code, run.changed], args.join(' ')).to.deep.equal([0, false]);
      }
      expect((await runService('govern-test-no-such-service', ['ensure=stopped', 'enable=true'])).code).to.equal(1);
    });
  });

  describe('cost', () => {
    it('checks an unchanged service with one command (the init script\'s status) and reads the links from /etc', async () => {
      await withLinks('enabled');
      await started();
      const commands: string[][] = [];
      const recording = (command: string, args: string[], options?: RunOptions) => {
        commands.push([command, ...args]);
        return runCommand(command, args, options);
      };
      const result = await handle(serviceRunner(recording), [NAME, 'ensure=running', 'enable=true'], process.env, () => undefined);
      expect(result).to.deep.equal({ changed: false, message: 'running, enabled' });
      expect(commands).to.deep.equal([[script.script, 'status']]);
    });

    it('asks service(8) when systemd is init, which hands the status to systemctl (the command recorded, not run)', async () => {
      const commands: string[][] = [];
      const recording = async (command: string, args: string[]): Promise<RunResult> => {
        commands.push([command, ...args]);
        return { code: 3, signal: null, stdout: '', stderr: '', timedOut: false, overflowed: false, durationMs: 0 };
      };
      const provider = sysvProvider(providerContext(process.env, () => undefined, recording), () => true);
      expect(await provider.status(NAME)).to.include({ running: false });
      expect(commands).to.deep.equal([['service', NAME, 'status']]);
    });

    it('runs the status action as service(8) would: from /, with only the locale, PATH and TERM', async () => {
      const seen = `${script.actionLog}.env`;
      fs.writeFileSync(script.script, `#!/bin/sh\n{ pwd; env | sort; } > ${seen}\nexit 3\n`, { mode: 0o755 });
      const env = { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_TIME: 'C', TERM: 'dumb', GOVERN_TEST_SECRET: 'x', HOME: '/root' };
      const result = await handle(serviceRunner(), [NAME, 'ensure=stopped', 'provider=sysv'], env, () => undefined);
      expect(result).to.deep.include({ changed: false });
      const [cwd, ...vars] = fs.readFileSync(seen, 'utf8').trim().split('\n');
      expect(cwd).to.equal('/');
      const names = vars.map((v) => v.slice(0, v.indexOf('='))).filter((n) => !['PWD', 'SHLVL', '_'].includes(n)); // the shell's own
      expect(names).to.have.members(['LANG', 'LC_TIME', 'PATH', 'TERM']);
      expect(vars).to.include(`PATH=${process.env.PATH}`);
    });
  });
});
