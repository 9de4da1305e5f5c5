// The pkg runner against the real apt and dpkg of this machine, offline: a local repository of
// tiny .deb packages, one package in four versions (1.0-1, 1.1-1, 2.0~rc1-1, 1:0.5-1), and one
// with a conffile and a postinst that can be told to fail.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseResult } from '../../../src/shared/protocol.js';
import { runCommand } from '../../../src/shared/process.js';
import type { RunReport } from '../../../src/report/types.js';
import { govern, runner } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { lockFile, privateLockDir } from '../../../src/runners/lib/package-tools.js';
import { AptTestRepo, dpkgLeftovers, dpkgPurge, dpkgStatus, have, must, scratchDir } from './repos.js';
import { hostExclusive } from '../../support/host-lock.js';

const HELLO = 'govern-test-hello';
const CONF = 'govern-test-conf';

async function pkg(args: string[], options: { noop?: boolean } = {}) {
  const r = await runner('pkg', args, { env: options.noop ? { GOVERN_NOOP: '1' } : {} });
  // The log shows commands shell-quoted (shell-quote escapes ":" and "="); the tests read them plain.
  return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr.replace(/\\(.)/g, '$1') };
}

describe('pkg runner with apt (real dpkg and apt-get, local repository)', function () {
  hostExclusive();
  this.timeout(300_000);
  let repo: AptTestRepo;

  before(async function () {
    if (process.getuid?.() !== 0 || !(await have('apt-get')) || !(await have('dpkg-scanpackages'))) this.skip();
    // Leftovers of an interrupted run: test packages, and sources whose directory is gone.
    const stale = await dpkgLeftovers('govern-test-');
    if (stale.length > 0) await dpkgPurge(stale);
    for (const file of fs.readdirSync('/etc/apt/sources.list.d')) {
      if (/^govern-pkg-apt-.*\.list$/.test(file)) fs.rmSync(path.join('/etc/apt/sources.list.d', file));
    }
    repo = new AptTestRepo(scratchDir('govern-pkg-apt-'), [HELLO, CONF]);
    const flag = path.join(repo.dir, 'fail-postinst');
    await repo.build([
      { name: HELLO, version: '1.0-1' },
      { name: HELLO, version: '1.1-1' },
      { name: HELLO, version: '2.0~rc1-1' },
      { name: HELLO, version: '1:0.5-1' },
      { name: CONF, version: '1.0-1', conffile: '/etc/govern-test-conf.conf', failPostinstWhile: flag },
    ]);
    await repo.add();
  });

  after(async () => {
    await repo?.cleanup();
  });

  describe('the decision table, step by step, checked with dpkg-query #once', () => {
    it('present, absent, noop: "Would have installed", nothing installed', async () => {
      const r = await pkg([HELLO, 'ensure=present'], { noop: true });
      expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have installed' });
      expect(await dpkgStatus(HELLO)).to.equal('unknown');
    });

    it('version, absent, noop: "Would have installed version 1.0-1"', async () => {
      const r = await pkg([HELLO, 'ensure=1.0-1'], { noop: true });
      expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have installed version 1.0-1' });
      expect(await dpkgStatus(HELLO)).to.equal('unknown');
    });

    it('version, absent: installs that version', async () => {
      const r = await pkg([HELLO, 'ensure=1.0-1']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1.0-1' });
      expect(await dpkgStatus(HELLO)).to.equal('1.0-1 installed');
      expect(r.stderr).to.include(
        '$ apt-get install -y -q -o DPkg::Options::=--force-confold -o DPkg::Lock::Timeout=600 --allow-downgrades govern-test-hello=1.0-1\n',
      );
    });

    it('present, installed: no change (and no upgrade although newer versions exist)', async () => {
      const r = await pkg([HELLO, 'ensure=present']);
      expect(r).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
      expect(r.stderr).not.to.include('apt-get');
      expect(await dpkgStatus(HELLO)).to.equal('1.0-1 installed');
    });

    it('version, same version: no change', async () => {
      const r = await pkg([HELLO, 'ensure=1.0-1']);
      expect(r).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
    });

    it('version, older installed, noop: "Would have upgraded to 1.1-1"', async () => {
      const r = await pkg([HELLO, 'ensure=1.1-1'], { noop: true });
      expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to 1.1-1' });
      expect(await dpkgStatus(HELLO)).to.equal('1.0-1 installed');
    });

    it('version, older installed: upgrades', async () => {
      const r = await pkg([HELLO, 'ensure=1.1-1']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.0-1 to 1.1-1' });
      expect(await dpkgStatus(HELLO)).to.equal('1.1-1 installed');
    });

    it('version with a tilde: 2.0~rc1-1 is newer than 1.1-1', async () => {
      const r = await pkg([HELLO, 'ensure=2.0~rc1-1']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.1-1 to 2.0~rc1-1' });
      expect(await dpkgStatus(HELLO)).to.equal('2.0~rc1-1 installed');
    });

    it('version, newer installed, noop: "Would have downgraded to 1.0-1"', async () => {
      const r = await pkg([HELLO, 'ensure=1.0-1'], { noop: true });
      expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have downgraded to 1.0-1' });
      expect(await dpkgStatus(HELLO)).to.equal('2.0~rc1-1 installed');
    });

    it('version, newer installed: downgrades', async () => {
      const r = await pkg([HELLO, 'ensure=1.0-1']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'downgraded from 2.0~rc1-1 to 1.0-1' });
      expect(await dpkgStatus(HELLO)).to.equal('1.0-1 installed');
    });

    it('latest, installed, noop: "Would have upgraded to latest"', async () => {
      const r = await pkg([HELLO, 'ensure=latest'], { noop: true });
      expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to latest' });
      expect(await dpkgStatus(HELLO)).to.equal('1.0-1 installed');
    });

    it('latest, installed: upgrades to apt-cache policy\'s candidate (the epoch makes 1:0.5-1 the newest)', async () => {
      const r = await pkg([HELLO, 'ensure=latest']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.0-1 to 1:0.5-1' });
      expect(r.stderr).to.include('$ apt-cache policy govern-test-hello');
      expect(r.stderr).to.include('$ apt-get install -y -q -o DPkg::Options::=--force-confold -o DPkg::Lock::Timeout=600 govern-test-hello=1:0.5-1\n');
      expect(r.stderr).not.to.include('--allow-downgrades');
      expect(await dpkgStatus(HELLO)).to.equal('1:0.5-1 installed');
    });

    it('latest, at the latest: the upgrade runs and changes nothing; noop says so too', async () => {
      const r = await pkg([HELLO, 'ensure=latest']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1:0.5-1' });
      const noop = await pkg([HELLO, 'ensure=latest'], { noop: true });
      expect(noop).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1:0.5-1' });
    });

    it('a version apt does not have: fails with apt\'s error, package untouched', async () => {
      const r = await pkg([HELLO, 'ensure=9.9-9']);
      expect(r.code).to.equal(1);
      expect(r.message).to.match(/apt-get install .* failed \(exit 100\): .*Version '9\.9-9' for 'govern-test-hello' was not found/);
      expect(await dpkgStatus(HELLO)).to.equal('1:0.5-1 installed');
    });

    it('absent, installed, noop: "Would have uninstalled"', async () => {
      const r = await pkg([HELLO, 'ensure=absent'], { noop: true });
      expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have uninstalled' });
      expect(await dpkgStatus(HELLO)).to.equal('1:0.5-1 installed');
    });

    it('absent, installed: uninstalls with apt-get remove', async () => {
      const r = await pkg([HELLO, 'ensure=absent']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1:0.5-1' });
      expect(r.stderr).to.include('$ apt-get -q -y -o DPkg::Lock::Timeout=600 remove govern-test-hello\n');
      expect(await dpkgStatus(HELLO)).to.equal('unknown');
    });

    it('absent, absent: no change', async () => {
      const r = await pkg([HELLO, 'ensure=absent']);
      expect(r).to.deep.include({ code: 0, changed: false, message: 'already absent' });
    });

    it('latest, absent, noop: "Would have installed latest"', async () => {
      const r = await pkg([HELLO, 'ensure=latest'], { noop: true });
      expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have installed latest' });
      expect(await dpkgStatus(HELLO)).to.equal('unknown');
    });

    it('state = "installed" (present, absent): installs the candidate', async () => {
      const r = await pkg([HELLO, 'state=installed']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1:0.5-1' });
      expect(await dpkgStatus(HELLO)).to.equal('1:0.5-1 installed');
    });

    it('state = "removed": uninstalls', async () => {
      const r = await pkg([HELLO, 'state=removed']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1:0.5-1' });
      expect(await dpkgStatus(HELLO)).to.equal('unknown');
    });

    it('latest, absent: installs the candidate', async () => {
      const r = await pkg([HELLO, 'ensure=latest']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1:0.5-1' });
      expect(await dpkgStatus(HELLO)).to.equal('1:0.5-1 installed');
    });
  });

  describe('packages that are not fully installed count as absent #once', () => {
    it('config-files (removed, conffile kept): absent; present reinstalls it', async () => {
      await must('apt-get', ['install', '-y', '-q', CONF], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
      await must('apt-get', ['remove', '-y', '-q', CONF], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
      expect(await dpkgStatus(CONF)).to.equal('1.0-1 config-files');

      expect(await pkg([CONF, 'ensure=absent'])).to.deep.include({ code: 0, changed: false, message: 'already absent' });
      expect(await pkg([CONF, 'ensure=present'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have installed' });
      const r = await pkg([CONF, 'ensure=present']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1.0-1' });
      expect(await dpkgStatus(CONF)).to.equal('1.0-1 installed');
    });

    it('half-configured (postinst failed): absent; the version reinstalls (repairs) it', async () => {
      const flag = path.join(repo.dir, 'fail-postinst');
      await must('apt-get', ['remove', '-y', '-q', CONF], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
      fs.writeFileSync(flag, '');
      const broken = await runCommand('apt-get', ['install', '-y', '-q', CONF], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      expect(broken.code).to.not.equal(0);
      expect(await dpkgStatus(CONF)).to.equal('1.0-1 half-configured');
      fs.rmSync(flag);

      expect(await pkg([CONF, 'ensure=1.0-1'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have installed version 1.0-1' });
      const r = await pkg([CONF, 'ensure=1.0-1']);
      expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1.0-1' });
      expect(await dpkgStatus(CONF)).to.equal('1.0-1 installed');
    });
  });

  describe('locking and validation #once', () => {
    it('waits for govern\'s package lock held by another process', async () => {
      privateLockDir();
      const holder = runCommand('flock', [lockFile(), 'sleep', '3']);
      // Wait until the holder has the lock.
      for (let k = 0; k < 50 && (await runCommand('flock', ['-n', lockFile(), 'true'])).code === 0; k++) await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      const r = await pkg([HELLO, 'ensure=present']);
      const waited = Date.now() - started;
      await holder;
      expect(r).to.deep.include({ code: 0, changed: false });
      expect(waited).to.be.greaterThan(2000);
    });

    it('passes apt-get only names apt knows exactly: "NAME-" does not remove NAME, a regex installs nothing', async () => {
      expect((await pkg([HELLO, 'ensure=present'])).code).to.equal(0);
      const before = await dpkgStatus(HELLO);
      const conf = await dpkgStatus(CONF);
      expect(before).to.match(/ installed$/);
      // apt-get would read "govern-test-hello-" as "remove govern-test-hello", "govern-test-co.f" as a regex
      // matching govern-test-conf.
      for (const name of [`${HELLO}-`, 'govern-test-co.f', `${HELLO}+`]) {
        const r = await pkg([name, 'ensure=present']);
        expect(r.code, name).to.equal(1);
        expect(r.message, name).to.match(/^apt knows no package named "govern-test-[^"]*" \(apt-cache pkgnames\)/);
        expect(r.stderr, name).to.not.include('apt-get install');
      }
      expect(await dpkgStatus(HELLO)).to.equal(before);
      expect(await dpkgStatus(CONF)).to.equal(conf);
    });

    it('refuses invalid names and versions before running anything (spy commands on PATH)', async () => {
      const spy = scratchDir('govern-pkg-spy-');
      try {
        const log = path.join(spy, 'calls.log');
        fs.writeFileSync(log, '');
        for (const tool of ['flock', 'dpkg-query', 'apt-get', 'apt-cache', 'rpm', 'dnf']) {
          const real = (await runCommand('sh', ['-c', 'command -v "$1"', 'sh', tool])).stdout.trim();
          if (real) fs.writeFileSync(path.join(spy, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
        }
        const env = { PATH: `${spy}:${process.env.PATH}` };
        const refused = [
          [['vim;reboot', 'ensure=present'], /^name "vim;reboot" is not a package name .*\(character ";" is not allowed\)/],
          [['$(id)'], /character "\$" is not allowed/],
          [[HELLO, 'ensure=1.0`id`'], /^ensure "1.0`id`" is not one of .*\(character "`" is not allowed\)/],
          [[HELLO, 'ensure=1.0|x'], /character "\|" is not allowed/],
          [[HELLO, 'ensure=1.0-'], /invalid Debian version "1.0-": the revision after "-" is empty/],
          [[HELLO, 'ensure=1.0:2-3:4', 'provider=dnf'], /invalid RPM version/],
          [['-oAPT::x', 'ensure=present'], /must not start with "-"/],
        ] as const;
        for (const [args, pattern] of refused) {
          const r = await runner('pkg', [...args], { env });
          expect(r.code, args.join(' ')).to.equal(1);
          expect(parseResult(r.stdout).message).to.match(pattern);
          expect(fs.readFileSync(log, 'utf8'), args.join(' ')).to.equal('');
        }
        // The spies do see a valid request.
        const ok = await runner('pkg', [HELLO, 'ensure=present'], { env });
        expect(ok.code).to.equal(0);
        expect(fs.readFileSync(log, 'utf8')).to.include(`flock -w 600 -E 75 ${lockFile()} dpkg-query -W`);
      } finally {
        fs.rmSync(spy, { recursive: true, force: true });
      }
    });
  });

  describe('through govern run', () => {
    async function run(state: string, ...options: string[]) {
      const dir = tempDir('govern-pkg-run-');
      writeFile(path.join(dir, 'packages.hcl'), state);
      const r = await govern(['run', dir, '--json', ...options]);
      return { code: r.code, stderr: r.stderr, report: JSON.parse(r.stdout) as RunReport };
    }
    const byRef = (report: RunReport) => Object.fromEntries(report.resources.map((res) => [res.ref, `${res.status}: ${res.message}`]));
    // The runs start where the tests by hand leave the packages (#once: the modes pass has not run them).
    before(async () => {
      await must('apt-get', ['install', '-y', '-q', '--allow-downgrades', `${HELLO}=1:0.5-1`, `${CONF}=1.0-1`], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
    });

    const pinned = `pkg "${HELLO}" {
  ensure = "1.1-1"
}

pkg "${CONF}" {
  state = "installed"
}
`;

    it('noop reports what would change and changes nothing', async () => {
      const r = await run(pinned, '--noop');
      expect(r.code, r.stderr).to.equal(0);
      expect(byRef(r.report)).to.deep.equal({
        [`pkg:${HELLO}`]: 'changed: Would have downgraded to 1.1-1',
        [`pkg:${CONF}`]: 'unchanged: already installed 1.0-1',
      });
      expect(await dpkgStatus(HELLO)).to.equal('1:0.5-1 installed');
    });

    it('applies the states (two resources at once, serialized by the package lock), then a second run changes nothing', async () => {
      const first = await run(pinned, '--jobs', '2');
      expect(first.code, first.stderr).to.equal(0);
      expect(byRef(first.report)).to.deep.equal({
        [`pkg:${HELLO}`]: 'changed: downgraded from 1:0.5-1 to 1.1-1',
        [`pkg:${CONF}`]: 'unchanged: already installed 1.0-1',
      });
      expect(await dpkgStatus(HELLO)).to.equal('1.1-1 installed');
      // The provider came from the real os/family fact (govern sets GOVERN for its runners).
      expect(first.report.resources[0].log.join('\n')).to.match(/^apt: govern-test-hello is installed at 1:0\.5-1/m);
      expect(first.report.resources[0].log.join('\n')).not.to.include('os/family');

      for (const mode of ['persistent', 'oneshot']) {
        const again = await run(pinned, '--runner-mode', mode);
        expect(again.code, again.stderr).to.equal(0);
        expect(again.report.summary, mode).to.include({ resources: 2, changed: 0, unchanged: 2, failed: 0 });
      }
      expect(await dpkgStatus(HELLO)).to.equal('1.1-1 installed');
    });

    it('latest and absent: the first run changes, the second reports zero changes', async () => {
      const latest = `pkg "${HELLO}" {\n  ensure = "latest"\n}\n\npkg "${CONF}" {\n  state = "removed"\n}\n`;
      const first = await run(latest);
      expect(first.code, first.stderr).to.equal(0);
      expect(byRef(first.report)).to.deep.equal({
        [`pkg:${HELLO}`]: 'changed: upgraded from 1.1-1 to 1:0.5-1',
        [`pkg:${CONF}`]: 'changed: uninstalled 1.0-1',
      });
      const second = await run(latest);
      expect(second.code, second.stderr).to.equal(0);
      expect(second.report.summary).to.include({ resources: 2, changed: 0, unchanged: 2, failed: 0 });
      expect(byRef(second.report)).to.deep.equal({
        [`pkg:${HELLO}`]: 'unchanged: already at the latest version 1:0.5-1',
        [`pkg:${CONF}`]: 'unchanged: already absent',
      });
      expect(await dpkgStatus(CONF)).to.equal('1.0-1 config-files');
    });

    it('an invalid name is refused before anything runs, and the run exits 1', async () => {
      const r = await run(`pkg "bad;name" {\n  ensure = "present"\n}\n`);
      expect(r.code).to.equal(1);
      expect(r.report.resources).to.deep.equal([]);
      expect(r.report.errors[0].message).to.match(/^pkg:bad;name: name "bad;name" is not a package name .*\(character ";" is not allowed\)/);
    });
  });
});
