// govern's systemd units as `make install` installs them: checked by systemd-analyze verify, then
// started under a real systemd user manager, where the service pulls a signed commit and runs it.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { runCommand } from '../../src/shared/process.js';
import { ROOT } from '../support/cli.js';
import { writeFile } from '../support/tmp.js';
import { gitLab } from '../pull/git-lab.js';
import { UserManager } from '../runners/service/support/user-manager.js';
import { hostExclusive } from '../support/host-lock.js';

describe('systemd units (govern.service, govern.timer)', function () {
  hostExclusive();
  this.timeout(600_000);
  let prefix: string;
  const unitDir = () => path.join(prefix, 'lib/systemd/system');
  const installed = (name: string) => fs.readFileSync(path.join(unitDir(), name), 'utf8');

  before(async () => {
    prefix = fs.mkdtempSync('/tmp/govern-fleet-prefix-');
    // -o build: the suite runs from dist/, which is built already.
    const make = await runCommand('make', ['-C', ROOT, '-o', 'build', 'install', `PREFIX=${prefix}`], { timeoutMs: 600_000 });
    if (make.code !== 0) throw new Error(`make install: ${make.stderr}`);
  });
  after(() => fs.rmSync(prefix, { recursive: true, force: true }));

  it('are installed into the prefix, naming its govern and environment file, and pass systemd-analyze verify', async () => {
    const service = installed('govern.service');
    expect(service).to.include(`ExecStart=${prefix}/bin/govern run $GOVERN_OPTIONS\n`);
    expect(service).to.include(`exec ${prefix}/bin/govern pull -- "$$GOVERN_REPOSITORY"`);
    expect(service).to.include(`EnvironmentFile=-${prefix}/etc/default/govern\n`);
    for (const unit of [service, installed('govern.timer')]) expect(unit).to.include('\nDocumentation=man:govern(1)\n');
    // verify runs `man` for Documentation=man:govern(1): the page the prefix installed must answer.
    const env = { ...process.env, MANPATH: path.join(prefix, 'share/man') };
    const verify = await runCommand('systemd-analyze', ['verify', path.join(unitDir(), 'govern.service'), path.join(unitDir(), 'govern.timer')], { timeoutMs: 60_000, env });
    expect(verify.code, verify.stderr).to.equal(0);
    expect(verify.stderr.trim()).to.equal('');
  });

  describe('under a real systemd user manager', () => {
    const manager = new UserManager();
    before(async () => {
      await manager.start();
      await manager.writeUnit('govern.service', installed('govern.service'));
      await manager.writeUnit('govern.timer', installed('govern.timer'));
    });
    after(() => manager.stop());

    it('the service pulls the configured repository, runs it, and the run is recorded in its var directory', async () => {
      const lab = await gitLab();
      const out = path.join(lab.dir, 'applied');
      const commit = await lab.commit({ 'site.hcl': `file "${out}" {\n  ensure = "present"\n  contents = "from the timer\\n"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n` }, 'trusted');
      const varDir = path.join(lab.dir, 'var');
      writeFile(
        path.join(prefix, 'etc/default/govern'),
        `GOVERN_REPOSITORY=${lab.bare}\nGOVERN_ALLOWED_SIGNERS=${lab.allowedSigners}\nGOVERN_VAR_DIR=${varDir}\nGOVERN_OPTIONS=--no-cache\n`,
      );
      const start = await manager.systemctl('start', 'govern.service');
      const result = (await manager.systemctl('show', '--property=Result', '--value', 'govern.service')).stdout.trim();
      expect(start.code, `${start.stderr} (Result=${result})`).to.equal(0);
      expect(result).to.equal('success');
      expect(fs.readFileSync(out, 'utf8')).to.equal('from the timer\n');
      const report = JSON.parse(fs.readFileSync(path.join(varDir, 'last-run.json'), 'utf8')) as RunReport;
      expect(report.state).to.equal(path.join(prefix, 'etc/govern/states'));
      expect(report.commit).to.equal(commit);
      expect(report.summary.changed).to.equal(1);
    });

    it('the timer fires every 30 minutes with a fixed random delay per host, and catches up missed runs', async () => {
      await manager.mustSucceed('start', 'govern.timer');
      try {
        const show = async (p: string) => (await manager.mustSucceed('show', `--property=${p}`, '--value', 'govern.timer')).stdout.trim();
        expect(await show('TimersCalendar')).to.include('OnCalendar=*-*-* *:00/30:00');
        expect(await show('RandomizedDelayUSec')).to.equal('30min');
        expect(await show('FixedRandomDelay')).to.equal('yes');
        expect(await show('Persistent')).to.equal('yes');
        expect(await show('NextElapseUSecRealtime')).to.not.equal('');
        expect(await show('Unit')).to.equal('govern.service');
      } finally {
        await manager.systemctl('stop', 'govern.timer');
      }
    });
  });
});
