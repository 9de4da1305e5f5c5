// The pkg runner against the real dnf and rpm of this machine (Debian's packages), offline: a local
// repository of tiny noarch rpms, one package in four versions (1.0-1, 1.1-1, 2.0~rc1-1, 1:0.5-1).
// This host is Debian, so the provider is named explicitly: provider = "dnf".
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseResult } from '../../../src/shared/protocol.js';
import type { RunReport } from '../../../src/report/types.js';
import { govern, runner } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { DnfTestRepo, have, must, rpmStatus, scratchDir } from './repos.js';
import { hostExclusive } from '../../support/host-lock.js';

const HELLO = 'govern-test-hello';

async function pkg(args: string[], options: { noop?: boolean } = {}) {
  const r = await runner('pkg', [...args, 'provider=dnf'], { env: options.noop ? { GOVERN_NOOP: '1' } : {} });
  return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr.replace(/\\(.)/g, '$1') };
}

describe('pkg runner with dnf (real dnf and rpm, local repository)', function () {
  hostExclusive();
  this.timeout(300_000);
  let repo: DnfTestRepo;

  before(async function () {
    if (process.getuid?.() !== 0 || !(await have('dnf')) || !(await have('rpmbuild')) || !(await have('createrepo_c'))) this.skip();
    // Debian's rpm needs its database created once (README.Debian of dnf); this is a no-op when it exists.
    await must('rpm', ['--initdb']);
    if ((await rpmStatus(HELLO)) !== 'absent') await must('rpm', ['-e', HELLO]);
    if (fs.existsSync('/etc/yum.repos.d')) {
      for (const file of fs.readdirSync('/etc/yum.repos.d')) if (/^govern-pkg-dnf-.*\.repo$/.test(file)) fs.rmSync(path.join('/etc/yum.repos.d', file));
    }
    repo = new DnfTestRepo(scratchDir('govern-pkg-dnf-'), [HELLO]);
    await repo.build([
      { name: HELLO, version: '1.0-1' },
      { name: HELLO, version: '1.1-1' },
      { name: HELLO, version: '2.0~rc1-1' },
      { name: HELLO, version: '1:0.5-1' },
    ]);
    repo.add();
  });

  after(async () => {
    await repo?.cleanup();
  });

  it('present, absent, noop: "Would have installed", nothing installed #once', async () => {
    expect(await pkg([HELLO, 'ensure=present'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have installed' });
    expect(await rpmStatus(HELLO)).to.equal('absent');
  });

  it('version, absent, noop: "Would have installed version 1.0-1" #once', async () => {
    expect(await pkg([HELLO, 'ensure=1.0-1'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have installed version 1.0-1' });
  });

  it('version, absent: dnf install -y NAME-VERSION #once', async () => {
    const r = await pkg([HELLO, 'ensure=1.0-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1.0-1' });
    expect(r.stderr).to.include('$ dnf install -y govern-test-hello-1.0-1\n');
    expect(await rpmStatus(HELLO)).to.equal('0:1.0-1');
  });

  it('present, installed: no change, no dnf call #once', async () => {
    const r = await pkg([HELLO, 'ensure=present']);
    expect(r).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
    expect(r.stderr).not.to.include('$ dnf');
    expect(r.stderr).to.include("$ rpm -q govern-test-hello --queryformat '%{NAME} %|EPOCH?{%{EPOCH}}:{0}| %{VERSION} %{RELEASE} %{ARCH}\n'");
  });

  it('version, same version: no change #once', async () => {
    expect(await pkg([HELLO, 'ensure=1.0-1'])).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
  });

  it('version, older installed, noop: "Would have upgraded to 1.1-1" #once', async () => {
    expect(await pkg([HELLO, 'ensure=1.1-1'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to 1.1-1' });
    expect(await rpmStatus(HELLO)).to.equal('0:1.0-1');
  });

  it('version, older installed: upgrades through dnf install -y NAME-VERSION #once', async () => {
    const r = await pkg([HELLO, 'ensure=1.1-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.0-1 to 1.1-1' });
    expect(r.stderr).to.include('$ dnf install -y govern-test-hello-1.1-1\n');
    expect(await rpmStatus(HELLO)).to.equal('0:1.1-1');
  });

  it('version with a tilde: 2.0~rc1-1 is newer than 1.1-1 #once', async () => {
    const r = await pkg([HELLO, 'ensure=2.0~rc1-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.1-1 to 2.0~rc1-1' });
    expect(await rpmStatus(HELLO)).to.equal('0:2.0~rc1-1');
  });

  it('version, newer installed, noop: "Would have downgraded to 1.0-1" #once', async () => {
    expect(await pkg([HELLO, 'ensure=1.0-1'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have downgraded to 1.0-1' });
    expect(await rpmStatus(HELLO)).to.equal('0:2.0~rc1-1');
  });

  it('version, newer installed: downgrades with dnf downgrade -y NAME-VERSION #once', async () => {
    const r = await pkg([HELLO, 'ensure=1.0-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'downgraded from 2.0~rc1-1 to 1.0-1' });
    expect(r.stderr).to.include('$ dnf downgrade -y govern-test-hello-1.0-1\n');
    expect(await rpmStatus(HELLO)).to.equal('0:1.0-1');
  });

  it('a version without its release matches any release #once', async () => {
    expect(await pkg([HELLO, 'ensure=1.0'])).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
    const r = await pkg([HELLO, 'ensure=1.1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.0-1 to 1.1-1' });
    expect(await rpmStatus(HELLO)).to.equal('0:1.1-1');
  });

  it('latest, installed, noop: "Would have upgraded to latest" #once', async () => {
    expect(await pkg([HELLO, 'ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to latest' });
    expect(await rpmStatus(HELLO)).to.equal('0:1.1-1');
  });

  it('latest, installed: dnf upgrade -y NAME (dnf install would leave it alone), to the epoch 1 version #once', async () => {
    const r = await pkg([HELLO, 'ensure=latest']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.1-1 to 1:0.5-1' });
    expect(r.stderr).to.include('$ dnf upgrade -y govern-test-hello\n');
    expect(await rpmStatus(HELLO)).to.equal('1:0.5-1');
  });

  it('latest, at the latest: the upgrade runs and changes nothing; noop says so too #once', async () => {
    const r = await pkg([HELLO, 'ensure=latest']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1:0.5-1' });
    expect(r.stderr).to.include('$ dnf upgrade -y govern-test-hello\n');
    expect(await pkg([HELLO, 'ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1:0.5-1' });
  });

  it('a version without its epoch matches the installed epoch; with the wrong epoch it does not #once', async () => {
    expect(await pkg([HELLO, 'ensure=0.5-1'])).to.deep.include({ code: 0, changed: false, message: 'already installed 1:0.5-1' });
    expect(await pkg([HELLO, 'ensure=1:0.5-1'])).to.deep.include({ code: 0, changed: false, message: 'already installed 1:0.5-1' });
    // 0:0.5-1 is not the installed 1:0.5-1, and no repository offers it: noop says so, as the real run would fail.
    const wrongEpoch = await pkg([HELLO, 'ensure=0:0.5-1'], { noop: true });
    expect(wrongEpoch.code).to.equal(1);
    expect(wrongEpoch.message).to.match(/dnf knows no package govern-test-hello-0:0\.5-1 in its repositories/);
  });

  it('a version dnf does not have: fails with dnf\'s error, package untouched #once', async () => {
    const r = await pkg([HELLO, 'ensure=9.9-9']);
    expect(r.code).to.equal(1);
    expect(r.message).to.match(/dnf install -y govern-test-hello-9\.9-9 failed \(exit 1\): .*Unable to find a match: govern-test-hello-9\.9-9/);
    expect(await rpmStatus(HELLO)).to.equal('1:0.5-1');
  });

  it('absent, installed, noop: "Would have uninstalled" #once', async () => {
    expect(await pkg([HELLO, 'ensure=absent'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have uninstalled' });
    expect(await rpmStatus(HELLO)).to.equal('1:0.5-1');
  });

  it('absent, installed: dnf remove -y NAME #once', async () => {
    const r = await pkg([HELLO, 'ensure=absent']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1:0.5-1' });
    expect(r.stderr).to.include('$ dnf remove -y govern-test-hello\n');
    expect(await rpmStatus(HELLO)).to.equal('absent');
  });

  it('absent, absent: no change #once', async () => {
    expect(await pkg([HELLO, 'ensure=absent'])).to.deep.include({ code: 0, changed: false, message: 'already absent' });
  });

  it('latest, absent, noop: "Would have installed latest" #once', async () => {
    expect(await pkg([HELLO, 'ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have installed latest' });
  });

  it('latest, absent: dnf install -y NAME installs the newest #once', async () => {
    const r = await pkg([HELLO, 'ensure=latest']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1:0.5-1' });
    expect(r.stderr).to.include('$ dnf install -y govern-test-hello\n');
    expect(await rpmStatus(HELLO)).to.equal('1:0.5-1');
  });

  it('state = "removed" and state = "installed" #once', async () => {
    expect(await pkg([HELLO, 'state=removed'])).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1:0.5-1' });
    expect(await rpmStatus(HELLO)).to.equal('absent');
    expect(await pkg([HELLO, 'state=installed'])).to.deep.include({ code: 0, changed: true, message: 'installed 1:0.5-1' });
    expect(await rpmStatus(HELLO)).to.equal('1:0.5-1');
  });

  describe('through govern run (provider = "dnf")', () => {
    async function run(state: string, ...options: string[]) {
      const dir = tempDir('govern-pkg-run-');
      writeFile(path.join(dir, 'packages.hcl'), state);
      const r = await govern(['run', dir, '--json', ...options]);
      return { code: r.code, stderr: r.stderr, report: JSON.parse(r.stdout) as RunReport };
    }
    const state = (ensure: string) => `pkg "${HELLO}" {\n  ensure   = "${ensure}"\n  provider = "dnf"\n}\n`;
    // The runs start where the tests by hand leave the package (#once: the modes pass has not run them).
    before(async () => {
      if ((await rpmStatus(HELLO)) !== '1:0.5-1') await must('dnf', ['install', '-y', '-q', HELLO]);
    });

    for (const [ensure, before, message, after] of [
      ['1.1-1', '1:0.5-1', 'downgraded from 1:0.5-1 to 1.1-1', '0:1.1-1'],
      ['latest', '0:1.1-1', 'upgraded from 1.1-1 to 1:0.5-1', '1:0.5-1'],
      ['absent', '1:0.5-1', 'uninstalled 1:0.5-1', 'absent'],
      ['present', 'absent', 'installed 1:0.5-1', '1:0.5-1'],
    ]) {
      it(`ensure = "${ensure}": noop, a run that changes it, then a second run with zero changes`, async () => {
        expect(await rpmStatus(HELLO)).to.equal(before);
        const noop = await run(state(ensure), '--noop');
        expect(noop.code, noop.stderr).to.equal(0);
        expect(noop.report.summary).to.include({ changed: 1 });
        expect(await rpmStatus(HELLO)).to.equal(before);

        const first = await run(state(ensure));
        expect(first.code, first.stderr).to.equal(0);
        expect(first.report.resources[0]).to.include({ ref: `pkg:${HELLO}`, status: 'changed', message });
        expect(await rpmStatus(HELLO)).to.equal(after);

        const second = await run(state(ensure));
        expect(second.code, second.stderr).to.equal(0);
        expect(second.report.summary).to.include({ resources: 1, changed: 0, unchanged: 1, failed: 0 });
        expect(await rpmStatus(HELLO)).to.equal(after);
      });
    }
  });
});
