// The real runners/cron with provider = "systemd" against a real systemd user manager, in both runner
// modes: the timer and its service written, checked by `systemd-analyze verify`, one daemon-reload
// (with one an earlier unit left pending), the timer enabled and started, the service running the
// command as cron would; a changed schedule restarts the timer; absent stops, disables and removes.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';
import { UserManager } from '../service/support/user-manager.js';
import { hostExclusive } from '../../support/host-lock.js';

describe('cron runner, provider = "systemd" (real systemd --user manager) #once', function () {
  hostExclusive();
  this.timeout(180_000);
  const manager = new UserManager();
  before(() => manager.start());
  after(() => manager.stop());

  for (const mode of MODES) {
    const name = `govern-test-timer-${process.pid}-${mode}`;
    const service = path.join(manager.unitDir, `${name}.service`);
    const timer = path.join(manager.unitDir, `${name}.timer`);
    afterEach(async () => {
      await manager.systemctl('disable', '--now', `${name}.timer`);
      for (const file of [service, timer]) fs.rmSync(file, { force: true });
      await manager.systemctl('daemon-reload');
    });

    it(`noop, created and started, verified, the command run as cron would, unchanged, a new schedule, absent (${mode} runner)`, async () => {
      const out = tempDir('govern-timer-out-');
      const runDir = tempDir('govern-timer-run-');
      const env = { XDG_RUNTIME_DIR: manager.env.XDG_RUNTIME_DIR!, XDG_CONFIG_HOME: path.join(os.homedir(), '.config'), GOVERN_RUN_DIR: runDir };
      const cron = (args: string[], extra: Record<string, string> = {}) => callRunner('cron', mode, name, ['provider=systemd', 'scope=user', ...args], { ...env, ...extra });
      const job = (hour: string) => [`command=printf '\\%s|\\%s' "$GREETING" "$(pwd)" > ${out}/ran`, 'minute=*/15', `hour=${hour}`, 'weekday=1-5', 'environment=GREETING=50% "off"'];

      const noop = await cron(job('2'), { GOVERN_NOOP: '1' });
      expect(noop).to.include({ ok: true, changed: true, message: `Would have created ${service}; Would have created ${timer}; Would have enabled and started ${name}.timer` });
      expect(fs.existsSync(timer)).to.equal(false);

      // A unit changed earlier in the run left its reload pending: the job's reload is the same one.
      fs.mkdirSync(path.join(runDir, 'unit'), { recursive: true }); // noop left its note there
      fs.writeFileSync(path.join(runDir, 'unit', 'daemon-reload-user'), '');
      const first = await cron(job('2'));
      expect(first).to.include({ ok: true, changed: true, message: `created ${service}; created ${timer}; daemon-reload done; enabled and started ${name}.timer` });
      expect(first.log.split('\n').filter((l) => l.startsWith('$ ') && l.includes('daemon-reload'))).to.have.length(1);
      expect(fs.existsSync(path.join(runDir, 'unit', 'daemon-reload-user'))).to.equal(false);
      expect(fs.readFileSync(timer, 'utf8')).to.contain('\nOnCalendar=Mon..Fri *-*-* 02:00,15,30,45:00\n');
      execFileSync('systemd-analyze', ['--user', 'verify', service, timer], { env: manager.env });
      expect((await manager.systemctl('is-active', `${name}.timer`)).stdout.trim()).to.equal('active');
      expect((await manager.systemctl('is-enabled', `${name}.timer`)).stdout.trim()).to.equal('enabled');

      await manager.mustSucceed('start', `${name}.service`);
      // cron's \% is a literal %, $ and " reach the shell as written, and the job runs in the user's home.
      expect(fs.readFileSync(path.join(out, 'ran'), 'utf8')).to.equal(`50% "off"|${os.homedir()}`);

      expect(await cron(job('2'))).to.include({ ok: true, changed: false, message: `${service} up to date; ${timer} up to date; ${name}.timer enabled and active` });

      const moved = await cron(job('3'));
      expect(moved).to.include({ ok: true, changed: true, message: `${service} up to date; changed ${timer} (content); daemon-reload done; restarted ${name}.timer` });
      expect(moved.diff?.split('\n')).to.include.members(['-OnCalendar=Mon..Fri *-*-* 02:00,15,30,45:00', '+OnCalendar=Mon..Fri *-*-* 03:00,15,30,45:00']);
      expect((await manager.mustSucceed('show', '--property=TimersCalendar', '--value', `${name}.timer`)).stdout).to.contain('03:00,15,30,45:00');

      const gone = await cron(['ensure=absent']);
      expect(gone).to.include({ ok: true, changed: true, message: `removed ${service}; removed ${timer}; daemon-reload done; stopped and disabled ${name}.timer` });
      expect(fs.existsSync(timer)).to.equal(false);
      expect((await manager.systemctl('is-active', `${name}.timer`)).stdout.trim()).to.not.equal('active');
      expect(await cron(['ensure=absent'])).to.include({ ok: true, changed: false, message: `${service} absent; ${timer} absent; ${name}.timer stopped` });
    });
  }

  it('user with scope = "user", scope without provider = "systemd", and @reboot as a timer are refused before anything', async () => {
    const name = `govern-test-timer-bad-${process.pid}`;
    const call = (args: string[]) => callRunner('cron', 'oneshot', name, ['command=true', ...args], { XDG_RUNTIME_DIR: manager.env.XDG_RUNTIME_DIR! });
    expect((await call(['provider=systemd', 'scope=user', 'user=app'])).message).to.equal('scope = "user" runs the job as the user running govern: leave out user');
    expect((await call(['scope=user'])).message).to.contain('scope');
    expect((await call(['provider=systemd', 'scope=user', 'special=reboot'])).message).to.contain('special = "reboot" has no timer equivalent');
    expect(fs.existsSync(path.join(manager.unitDir, `${name}.timer`))).to.equal(false);
  });
});
