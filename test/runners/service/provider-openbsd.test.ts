// The service runner's openbsd provider against a FAKE rcctl (support/fake-rcctl.ts: only the
// syntax rcctl's manual page gives, its exit statuses, rc.d's refusal to start a daemon that is not
// enabled unless forced), since rcctl does not run here. What is real: the runner, the provider
// choice (rcctl on PATH), the decision and govern run; what is not: rcctl and rc.d.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { parseResult } from '../../../src/shared/protocol.js';
import { govern, runner, TEST_VAR_DIR } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { FakeRcctl } from './support/fake-rcctl.js';
import { hostExclusive } from '../../support/host-lock.js';

const NAME = 'govern_obsd_web';

describe('service runner, openbsd provider (FAKE rcctl)', function () {
  // Whether systemd is init (/run/systemd/system, which a systemd test of another run may create) decides the choice.
  hostExclusive();
  this.timeout(60_000);
  let rc: FakeRcctl;

  /** runners/service with provider = "openbsd", unless `chosen` leaves the choice to the runner. */
  async function service(args: string[], env: NodeJS.ProcessEnv = {}, chosen = false) {
    const r = await runner('service', chosen ? args : [...args, 'provider=openbsd'], { env: { ...rc.env, ...env } });
    return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
  }

  before(() => {
    rc = new FakeRcctl();
    rc.script(NAME);
  });
  after(() => rc?.remove());

  it('is chosen by rcctl on PATH; noop reads rcctl check and rcctl get NAME status, changes nothing #once', async function () {
    if (fs.existsSync('/run/systemd/system')) this.skip(); // systemd as init is chosen first
    const r = await service([NAME, 'ensure=running', 'enable=true'], { GOVERN_NOOP: '1' }, true);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'Would have started; Would have enabled' });
    expect(rc.takeCalls()).to.deep.equal([`rcctl [check] [${NAME}]`, `rcctl [get] [${NAME}] [status]`]);
    expect(rc.running(NAME)).to.equal(false);
  });

  it('running without enable: rcctl -f start (rc.conf.local does not enable it), boot left alone #once', async () => {
    const r = await service([NAME, 'ensure=running']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'started' });
    expect(rc.takeCalls()).to.deep.equal([
      `rcctl [check] [${NAME}]`,
      `rcctl [get] [${NAME}] [status]`,
      `rcctl [get] [${NAME}] [status]`,
      `rcctl [-f] [start] [${NAME}]`,
      `rcctl [check] [${NAME}]`,
      `rcctl [get] [${NAME}] [status]`,
    ]);
    expect(rc.running(NAME)).to.equal(true);
    expect(rc.enabled(NAME)).to.equal(false);
  });

  it('enable: rcctl enable; then restart and reload signals without -f; then no change #once', async () => {
    expect(await service([NAME, 'ensure=running', 'enable=true'])).to.deep.include({ code: 0, changed: true, message: 'enabled' });
    expect(await service([NAME], { GOVERN_SIGNAL: 'restart' })).to.deep.include({ code: 0, changed: true, message: 'restarted' });
    expect(await service([NAME], { GOVERN_SIGNAL: 'reload' })).to.deep.include({ code: 0, changed: true, message: 'reloaded' });
    expect(rc.takeCalls().filter((c) => !/\[(check|get)\]/.test(c))).to.deep.equal([`rcctl [enable] [${NAME}]`, `rcctl [restart] [${NAME}]`, `rcctl [reload] [${NAME}]`]);
    expect(await service([NAME, 'ensure=running', 'enable=true'])).to.deep.include({ code: 0, changed: false, message: 'running, enabled' });
  });

  it('stopped and disabled: rcctl stop, rcctl disable #once', async () => {
    rc.takeCalls();
    const r = await service([NAME, 'ensure=stopped', 'enable=false']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'stopped; disabled' });
    expect(rc.takeCalls().filter((c) => !/\[(check|get)\]/.test(c))).to.deep.equal([`rcctl [stop] [${NAME}]`, `rcctl [disable] [${NAME}]`]);
    expect(rc.enabled(NAME)).to.equal(false);
  });

  it('a service rcctl does not know (exit 2): not found; a name that is not one: refused before rcctl runs #once', async () => {
    const missing = await service(['govern_obsd_none', 'ensure=running']);
    expect(missing.code).to.equal(1);
    expect(missing.message).to.include('service govern_obsd_none not found: rcctl knows no such service (exit 2)');
    rc.takeCalls();
    const bad = await service(['govern-obsd.web', 'ensure=running']);
    expect(bad.code).to.equal(1);
    expect(bad.message).to.include('cannot be an OpenBSD rc.d service');
    expect(rc.takeCalls()).to.deep.equal([]);
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`through govern run (${mode} runners): started and enabled, then zero changes`, async () => {
      const name = `govern_obsd_${mode}`;
      rc.script(name);
      const dir = tempDir('govern-openbsd-run-');
      writeFile(path.join(dir, 'services.hcl'), `service "${name}" {\n  ensure   = "running"\n  enable   = true\n  provider = "openbsd"\n}\n`);
      const once = async () => {
        const r = await govern(['run', dir, '--json', '--runner-mode', mode], { env: { ...rc.env, GOVERN_VAR_DIR: TEST_VAR_DIR } });
        expect(r.code, r.stderr).to.equal(0);
        return JSON.parse(r.stdout) as RunReport;
      };
      expect((await once()).resources[0]).to.include({ status: 'changed', message: 'started; enabled' });
      expect((await once()).summary).to.include({ changed: 0, unchanged: 1 });
      expect(rc.running(name) && rc.enabled(name)).to.equal(true);
    });
  }
});
