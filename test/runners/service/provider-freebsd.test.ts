// The service runner's freebsd provider against FAKES of FreeBSD's service(8) and sysrc(8)
// (support/fake-freebsd-rc.ts: only the syntax their manual pages give, rc.subr's refusal of a
// command without `one` for a service not enabled), since neither runs here. What is real: the
// runner, the provider choice (sysrc on PATH), the decision and govern run; what is not: rc.d.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { parseResult } from '../../../src/shared/protocol.js';
import { govern, runner, TEST_VAR_DIR } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { FakeFreebsdRc } from './support/fake-freebsd-rc.js';
import { hostExclusive } from '../../support/host-lock.js';

const NAME = 'govern_bsd_web';

describe('service runner, freebsd provider (FAKE service and sysrc)', function () {
  // Whether systemd is init (/run/systemd/system, which a systemd test of another run may create) decides the choice.
  hostExclusive();
  this.timeout(60_000);
  let rc: FakeFreebsdRc;

  /** runners/service with provider = "freebsd", unless `chosen` leaves the choice to the runner. */
  async function service(args: string[], env: NodeJS.ProcessEnv = {}, chosen = false) {
    const r = await runner('service', chosen ? args : [...args, 'provider=freebsd'], { env: { ...rc.env, ...env } });
    return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
  }

  before(() => {
    rc = new FakeFreebsdRc();
    rc.script(NAME, '"NO"');
    rc.script('govern-bsd-db');
  });
  after(() => rc?.remove());

  it('is chosen by sysrc on PATH; noop reads onestatus, service -l and sysrc -n, changes nothing #once', async function () {
    if (fs.existsSync('/run/systemd/system')) this.skip(); // systemd as init is chosen first
    const r = await service([NAME, 'ensure=running', 'enable=true'], { GOVERN_NOOP: '1' }, true);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'Would have started; Would have enabled' });
    // Exit 1 is both "not running" and "no such script": service -l tells them apart.
    expect(rc.takeCalls()).to.deep.equal([`service [${NAME}] [onestatus]`, 'service [-l]', `sysrc [-n] [${NAME}_enable]`]);
    expect(rc.running(NAME)).to.equal(false);
  });

  it('running and enabled: onestart (rc.conf does not enable it yet), then sysrc NAME_enable=YES; then no change #once', async () => {
    const r = await service([NAME, 'ensure=running', 'enable=true']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'started; enabled' });
    expect(rc.takeCalls()).to.deep.equal([
      `service [${NAME}] [onestatus]`,
      'service [-l]',
      `sysrc [-n] [${NAME}_enable]`,
      `sysrc [-n] [${NAME}_enable]`,
      `service [${NAME}] [onestart]`,
      `sysrc [${NAME}_enable=YES]`,
      `service [${NAME}] [onestatus]`,
      `sysrc [-n] [${NAME}_enable]`,
    ]);
    expect(rc.running(NAME)).to.equal(true);
    expect(rc.rcConf(`${NAME}_enable`)).to.equal('YES');
    expect(await service([NAME, 'ensure=running', 'enable=true'])).to.deep.include({ code: 0, changed: false, message: 'running, enabled' });
  });

  it('an enabled service: restart and reload signals use service NAME restart|reload #once', async () => {
    rc.takeCalls();
    expect(await service([NAME], { GOVERN_SIGNAL: 'restart' })).to.deep.include({ code: 0, changed: true, message: 'restarted' });
    expect(await service([NAME], { GOVERN_SIGNAL: 'reload' })).to.deep.include({ code: 0, changed: true, message: 'reloaded' });
    const acts = rc.takeCalls().filter((c) => !/status|-n|-l/.test(c));
    expect(acts).to.deep.equal([`service [${NAME}] [restart]`, `service [${NAME}] [reload]`]);
  });

  it('stopped and disabled: service NAME stop, then sysrc NAME_enable=NO #once', async () => {
    rc.takeCalls();
    const r = await service([NAME, 'ensure=stopped', 'enable=false']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'stopped; disabled' });
    expect(rc.takeCalls().filter((c) => !/status|-n|-l/.test(c))).to.deep.equal([`service [${NAME}] [stop]`, `sysrc [${NAME}_enable=NO]`]);
    expect(rc.rcConf(`${NAME}_enable`)).to.equal('NO');
  });

  it('a script whose NAME_enable is set nowhere is disabled; its name\'s "-" is "_" in rc.conf; onerestart when not enabled #once', async () => {
    const r = await service(['govern-bsd-db', 'ensure=running']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'started' });
    expect(rc.takeCalls()).to.include.members(['sysrc [-n] [govern_bsd_db_enable]', 'service [govern-bsd-db] [onestart]']);
    expect(await service(['govern-bsd-db'], { GOVERN_SIGNAL: 'restart' })).to.deep.include({ code: 0, changed: true, message: 'restarted' });
    expect(rc.takeCalls()).to.include('service [govern-bsd-db] [onerestart]');
  });

  it('a service rc.d does not have: not found (service -l); a name that makes no rc.conf variable: refused before any command #once', async () => {
    const missing = await service(['govern-bsd-none', 'ensure=running']);
    expect(missing.code).to.equal(1);
    expect(missing.message).to.include('service govern-bsd-none not found: no rc.d script of that name (service -l)');
    rc.takeCalls();
    const bad = await service(['getty@tty1', 'ensure=running']);
    expect(bad.code).to.equal(1);
    expect(bad.message).to.include('cannot be a FreeBSD rc.d service');
    expect(rc.takeCalls()).to.deep.equal([]);
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`through govern run (${mode} runners): started and enabled, then zero changes`, async () => {
      const name = `govern_bsd_${mode}`;
      rc.script(name);
      const dir = tempDir('govern-freebsd-run-');
      writeFile(path.join(dir, 'services.hcl'), `service "${name}" {\n  ensure   = "running"\n  enable   = true\n  provider = "freebsd"\n}\n`);
      const once = async () => {
        const r = await govern(['run', dir, '--json', '--runner-mode', mode], { env: { ...rc.env, GOVERN_VAR_DIR: TEST_VAR_DIR } });
        expect(r.code, r.stderr).to.equal(0);
        return JSON.parse(r.stdout) as RunReport;
      };
      expect((await once()).resources[0]).to.include({ status: 'changed', message: 'started; enabled' });
      expect((await once()).summary).to.include({ changed: 0, unchanged: 1 });
      expect(rc.running(name)).to.equal(true);
    });
  }
});
