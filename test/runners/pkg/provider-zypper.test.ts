// The pkg runner against the real zypper and rpm of this machine (Debian's zypper and libzypp),
// offline: a local repository of tiny noarch rpms (1.0-1, 1.1-1, 2.0~rc1-1, 1:0.5-1) made with
// rpmbuild and createrepo_c. `zypper` and `rpm` on the tests' PATH are wrappers that run the real
// programs with `--root` on a scratch directory, so this host's rpm database is never touched.
// The scratch root has /var/lib/rpm as Debian's rpm package ships it, so libzypp keeps its database
// there while Debian's rpm keeps its own in ~/.rpmdb: the provider must ask zypper, not rpm.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseResult } from '../../../src/shared/protocol.js';
import { runCommand } from '../../../src/shared/process.js';
import type { RunReport } from '../../../src/report/types.js';
import { govern, ROOT, runner } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { DnfTestRepo, have, must, scratchDir } from './repos.js';

const HELLO = 'govern-port-zhello';
/** Stays installed: libzypp cannot cache an empty rpm database (a real system's never is). */
const BASE = 'govern-port-zbase';
/** libzypp's database when /var/lib/rpm exists (Debian's rpm package ships it empty). */
const ZYPP_DB = '/var/lib/rpm';

describe('pkg runner with zypper (real zypper and rpm, local repository, scratch root)', function () {
  this.timeout(300_000);
  let repo: DnfTestRepo;
  let env: NodeJS.ProcessEnv;
  let root: string;

  async function pkg(args: string[], options: { noop?: boolean } = {}) {
    const r = await runner('pkg', [...args, 'provider=zypper'], { env: { ...env, ...(options.noop ? { GOVERN_NOOP: '1' } : {}) } });
    return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr.replace(/\\(.)/g, '$1') };
  }

  /** What the database zypper installs into says (rpm's own default database is another one). */
  async function installed(dbpath = ZYPP_DB): Promise<string> {
    const r = await runCommand('rpm', ['--dbpath', dbpath, '-q', HELLO, '--queryformat', '%|EPOCH?{%{EPOCH}}:{0}|:%{VERSION}-%{RELEASE}'], { env: { ...process.env, ...env, LC_ALL: 'C' } });
    return r.code === 0 ? r.stdout.trim() : 'absent';
  }

  before(async function () {
    if (process.getuid?.() !== 0 || !(await have('zypper')) || !(await have('rpmbuild')) || !(await have('createrepo_c'))) this.skip();
    repo = new DnfTestRepo(scratchDir('govern-pkg-zypper-'), []);
    await repo.build([
      { name: HELLO, version: '1.0-1' },
      { name: HELLO, version: '1.1-1' },
      { name: HELLO, version: '2.0~rc1-1' },
      { name: HELLO, version: '1:0.5-1' },
      { name: BASE, version: '1.0-1' },
    ]);
    root = path.join(repo.dir, 'root');
    const bin = path.join(repo.dir, 'bin');
    fs.mkdirSync(path.join(root, ZYPP_DB), { recursive: true });
    fs.mkdirSync(bin);
    for (const tool of ['zypper', 'rpm']) fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\nexec /usr/bin/${tool} --root '${root}' "$@"\n`, { mode: 0o755 });
    env = { PATH: `${bin}:${process.env.PATH}` };
    await must('zypper', ['--non-interactive', 'addrepo', '--no-gpgcheck', `file://${path.join(repo.dir, 'repo')}`, 'govern-test'], { env });
    await must('zypper', ['--non-interactive', 'refresh'], { env });
    await must('zypper', ['--non-interactive', 'install', '--name', BASE], { env });
  });

  after(async () => {
    if (repo) fs.rmSync(repo.dir, { recursive: true, force: true });
  });

  it('present, absent, noop, then version: zypper install --oldpackage --name NAME=VERSION #once', async () => {
    expect(await pkg([HELLO, 'ensure=present'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have installed' });
    expect(await installed()).to.equal('absent');
    const r = await pkg([HELLO, 'ensure=1.0-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1.0-1' });
    expect(r.stderr).to.include(`$ zypper --non-interactive install --oldpackage --name ${HELLO}=1.0-1\n`);
    expect(await installed()).to.equal('0:1.0-1');
  });

  it('the status is what zypper\'s database says, not rpm\'s default one (Debian\'s rpm: ~/.rpmdb) #once', async () => {
    const rpmDefault = (await runCommand('rpm', ['--eval', '%{_dbpath}'], { env: { ...process.env, ...env } })).stdout.trim();
    expect(rpmDefault).not.to.equal(ZYPP_DB);
    expect(await installed(rpmDefault)).to.equal('absent');
    const r = await pkg([HELLO, 'ensure=1.0-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
    expect(r.stderr).not.to.include('$ rpm');
  });

  it('present, installed: no change, zypper asked only for the status #once', async () => {
    const r = await pkg([HELLO, 'ensure=present']);
    expect(r).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
    expect(r.stderr.match(/^\$ .*$/gm)).to.deep.equal([
      `$ zypper --non-interactive --xmlout --disable-repositories search --installed-only --details --match-exact --case-sensitive --type package ${HELLO}`,
    ]);
  });

  it('upgrade to a version with a tilde (2.0~rc1-1 is newer than 1.1-1, by rpm\'s rules) #once', async () => {
    expect(await pkg([HELLO, 'ensure=2.0~rc1-1'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to 2.0~rc1-1' });
    const r = await pkg([HELLO, 'ensure=2.0~rc1-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.0-1 to 2.0~rc1-1' });
    expect(await installed()).to.equal('0:2.0~rc1-1');
  });

  it('downgrade to a version without its release (1.1 is met by 1.1-1) #once', async () => {
    const r = await pkg([HELLO, 'ensure=1.1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'downgraded from 2.0~rc1-1 to 1.1-1' });
    expect(await pkg([HELLO, 'ensure=1.1'])).to.deep.include({ code: 0, changed: false, message: 'already installed 1.1-1' });
  });

  it('latest: noop asks zypper search for the newest (the epoch 1 version), then zypper update NAME; again: no change #once', async () => {
    expect(await pkg([HELLO, 'ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to latest' });
    const r = await pkg([HELLO, 'ensure=latest']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.1-1 to 1:0.5-1' });
    expect(r.stderr).to.include(`$ zypper --non-interactive update ${HELLO}\n`);
    expect(await pkg([HELLO, 'ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1:0.5-1' });
    expect(await pkg([HELLO, 'ensure=latest'])).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1:0.5-1' });
  });

  it('a version zypper does not have: fails with zypper\'s error, package untouched; an invalid version before any command #once', async () => {
    const r = await pkg([HELLO, 'ensure=9.9-9']);
    expect(r.code).to.equal(1);
    expect(r.message).to.match(/zypper --non-interactive install --oldpackage --name govern-port-zhello=9\.9-9 failed \(exit 104\)/);
    expect(await installed()).to.equal('1:0.5-1');
    const bad = await pkg([HELLO, 'ensure=1.0-']);
    expect(bad.code).to.equal(1);
    expect(bad.message).to.include('invalid RPM version "1.0-"');
    expect(bad.stderr).not.to.include('$ zypper');
  });

  it('absent: noop, zypper remove --name NAME, then no change #once', async () => {
    expect(await pkg([HELLO, 'ensure=absent'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have uninstalled' });
    const r = await pkg([HELLO, 'ensure=absent']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1:0.5-1' });
    expect(r.stderr).to.include(`$ zypper --non-interactive remove --name ${HELLO}\n`);
    expect(await pkg([HELLO, 'ensure=absent'])).to.deep.include({ code: 0, changed: false, message: 'already absent' });
  });

  describe('through govern run (persistent runner)', () => {
    async function run(state: string, extraEnv: NodeJS.ProcessEnv, ...options: string[]) {
      const dir = tempDir('govern-pkg-run-');
      writeFile(path.join(dir, 'packages.hcl'), state);
      const r = await govern(['run', dir, '--json', ...options], { env: { ...env, ...extraEnv } });
      return { code: r.code, stderr: r.stderr, report: JSON.parse(r.stdout) as RunReport };
    }

    it('chosen by os/family = suse (the shipped fact on the openSUSE Leap fixture): noop, install, then zero changes', async () => {
      const suse = { GOVERN_FACTS_ROOT: path.join(ROOT, 'test', 'facts', 'os-fixtures', 'opensuse-leap-15.5') };
      const state = `pkg "${HELLO}" {\n  ensure = "present"\n}\n`;
      const noop = await run(state, suse, '--noop');
      expect(noop.code, noop.stderr).to.equal(0);
      expect(noop.report.summary).to.include({ changed: 1 });
      const first = await run(state, suse);
      expect(first.code, first.stderr).to.equal(0);
      expect(first.report.resources[0]).to.include({ ref: `pkg:${HELLO}`, status: 'changed', message: 'installed 1:0.5-1' });
      expect((await run(state, suse)).report.summary).to.include({ resources: 1, changed: 0, unchanged: 1, failed: 0 });
    });

    it('provider = "zypper" named: absent, then zero changes', async () => {
      const state = `pkg "${HELLO}" {\n  ensure   = "absent"\n  provider = "zypper"\n}\n`;
      expect((await run(state, {})).report.resources[0]).to.include({ status: 'changed', message: 'uninstalled 1:0.5-1' });
      expect((await run(state, {})).report.summary).to.include({ changed: 0, unchanged: 1 });
      expect(await installed()).to.equal('absent');
    });
  });
});
