// The return to the last good commit (docs/rollout.md), with real git and signed commits: a commit
// whose health check fails is returned from in the same invocation, the good commit applied again,
// the record, status and metrics say so, the commit is quarantined at later pulls while a newer
// fixing commit goes through; a tree pulled without --revert-on-failure behaves as before.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { hostRun } from '../../src/fleet/host-record.js';
import type { RunReport } from '../../src/report/types.js';
import { govern, runner } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { gitLab, must, type GitLab } from '../pull/git-lab.js';
import { AptTestRepo, dpkgLeftovers, dpkgPurge, dpkgStatus, have, scratchDir } from '../runners/pkg/repos.js';
import { hostExclusive } from '../support/host-lock.js';
import { runCommand } from '../../src/shared/process.js';
import { SysvScript } from '../runners/service/support/sysv-script.js';

/** A configuration file, and a health check that it says `listen`. */
const site = (conf: string, content: string) =>
  [
    `file "${conf}" {\n  ensure   = "present"\n  contents = "${content}"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n}\n`,
    `health "conf listens" {\n  file     = "${conf}"\n  contains = "listen"\n}\n`,
  ].join('\n');

describe('govern pull --revert-on-failure, and the run that returns', function () {
  this.timeout(180_000);
  let lab: GitLab;
  let varDir: string;
  let dir: string;
  let conf: string;
  let metrics: string;
  beforeEach(async () => {
    lab = await gitLab();
    const place = tempDir('govern-revert-');
    varDir = path.join(place, 'var');
    dir = path.join(place, 'states');
    conf = path.join(place, 'app.conf');
    metrics = path.join(place, 'govern.prom');
  });

  const pull = (extra: string[] = []) => govern(['pull', '--var-dir', varDir, '--allowed-signers', lab.allowedSigners, ...extra, lab.bare, dir]);
  const run = (extra: string[] = []) => govern(['run', dir, '--var-dir', varDir, '--metrics-file', metrics, ...extra]);
  /** A run that must exit `code`; its output is in the message when it does not. */
  const ran = async (code: number) => {
    const r = await run();
    expect(r.code, `${r.stdout}${r.stderr}`).to.equal(code);
    return r;
  };
  const lastRun = () => JSON.parse(fs.readFileSync(path.join(varDir, 'last-run.json'), 'utf8')) as RunReport;
  const lastPull = () => JSON.parse(fs.readFileSync(path.join(varDir, 'last-pull.json'), 'utf8')) as { outcome: string; good?: string; message?: string; current?: string };
  const storeGit = () => {
    const stores = fs.readdirSync(path.join(varDir, 'pull'));
    return path.join(varDir, 'pull', stores[0], 'repo.git');
  };

  it('returns from a commit whose health check fails to the last good one, and quarantines it until a newer commit', async () => {
    const good = await lab.commit({ 'site.hcl': site(conf, 'listen 80\\n') }, 'trusted');
    expect((await pull(['--revert-on-failure'])).code).to.equal(0);
    const first = await run();
    expect(first.code, first.stderr).to.equal(0);
    expect(await must('git', [`--git-dir=${storeGit()}`, 'rev-parse', 'refs/govern/good'])).to.equal(good);
    expect(lastPull().good).to.equal(good);

    // The bad commit also takes over a file the good one leaves alone: its backup puts it back.
    const other = path.join(path.dirname(conf), 'other.conf');
    fs.writeFileSync(other, 'original\n', { mode: 0o640 });
    const bad = await lab.commit({ 'site.hcl': site(conf, 'oops\\n'), 'other.hcl': site(other, 'taken over\\n').split('\nhealth')[0] }, 'trusted');
    expect((await pull(['--revert-on-failure'])).code).to.equal(0);
    const r = await run();
    expect(r.code).to.equal(1);
    expect(r.stdout).to.match(/^failed {4}health "conf listens" \(site\.hcl:9 .*does not contain "listen"/m);
    expect(r.stderr).to.include(`${dir}: reverted from ${bad} (site.hcl:9: health check "conf listens" failed: ${conf} does not contain "listen") to ${good}, the last good commit: running it`);
    // The good commit applied again, in the same invocation: its file as it was.
    expect(fs.readFileSync(conf, 'utf8')).to.equal('listen 80\n');
    expect(fs.readFileSync(other, 'utf8')).to.equal('original\n');
    expect(fs.statSync(other).mode & 0o7777).to.equal(0o640);
    expect(r.stderr).to.match(new RegExp(`restored ${other} from \\d{8}T\\d{9}Z \\(9 bytes, owner 0:0, mode 0640\\)`));
    expect(fs.realpathSync(dir)).to.match(new RegExp(`/trees/${good}$`));
    const recorded = lastRun();
    expect(recorded.commit).to.equal(good);
    expect(recorded.health).to.deep.equal({ passed: 1, failed: 0, failures: [] });
    expect(recorded.reverted).to.deep.include({ from: bad, to: good, reason: `site.hcl:9: health check "conf listens" failed: ${conf} does not contain "listen"` });
    expect(recorded.reverted?.failed_run?.health).to.deep.include({ passed: 0, failed: 1 });
    const status = await govern(['status', '--var-dir', varDir]);
    expect(status.code).to.equal(2);
    expect(status.stdout).to.match(new RegExp(`^GOVERN CRITICAL - reverted from ${bad.slice(0, 12)} \\(site\\.hcl:9: health check "conf listens" failed: .*\\) to ${good.slice(0, 12)};`));
    expect(fs.readFileSync(metrics, 'utf8')).to.include('govern_last_run_reverted 1');
    // The fleet's record carries it, as full hashes.
    expect(hostRun('h', recorded).reverted).to.deep.equal({ from: bad, to: good, reason: recorded.reverted?.reason });
    expect(hostRun('h', recorded).success).to.equal(true);

    // The bad commit is not applied again: the next pull refuses it and DIR stays at the good one.
    const again = await pull(['--revert-on-failure']);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.include(`refusing commit ${bad} of ${lab.bare}: it is quarantined on this host, reverted from it to ${good}: site.hcl:9: health check "conf listens" failed`);
    expect(fs.realpathSync(dir)).to.match(new RegExp(`/trees/${good}$`));
    // The timer's next run applies the good commit, and status stays CRITICAL until a newer commit succeeds.
    await ran(0);
    expect(lastRun().reverted).to.deep.equal({ from: bad, to: good, reason: recorded.reverted?.reason });
    expect((await govern(['status', '--var-dir', varDir])).code).to.equal(2);

    const fixed = await lab.commit({ 'site.hcl': site(conf, 'listen 8080\\n') }, 'trusted');
    const pulled = await pull(['--revert-on-failure']);
    expect(pulled.code, pulled.stderr).to.equal(0);
    expect(pulled.stdout).to.equal(`${dir}: ${good} -> ${fixed} (signed by ops@example.org)\n`);
    await ran(0);
    expect(fs.readFileSync(conf, 'utf8')).to.equal('listen 8080\n');
    expect(lastRun()).to.not.have.property('reverted');
    expect(await must('git', [`--git-dir=${storeGit()}`, 'rev-parse', 'refs/govern/good'])).to.equal(fixed);
    expect((await govern(['status', '--var-dir', varDir])).stdout).to.match(/^GOVERN OK - /);
    expect(fs.readFileSync(metrics, 'utf8')).to.include('govern_last_run_reverted 0');
  });

  it('with --json, prints one report: the return\'s run, carrying the return and the failed run\'s summary', async () => {
    const good = await lab.commit({ 'site.hcl': site(conf, 'listen 80\\n') }, 'trusted');
    await pull(['--revert-on-failure']);
    await ran(0);
    const bad = await lab.commit({ 'site.hcl': site(conf, 'oops\\n') }, 'trusted');
    await pull(['--revert-on-failure']);
    const r = await run(['--json']);
    expect(r.code, r.stderr).to.equal(1);
    const report = JSON.parse(r.stdout) as RunReport; // one document, or this throws
    expect(report.commit).to.equal(good);
    expect(report.reverted).to.deep.include({ from: bad, to: good });
    expect(report.reverted?.failed_run?.summary).to.include({ resources: 1, changed: 1, failed: 0 });
    expect(report.reverted?.failed_run?.health?.failed).to.equal(1);
    expect(report.health).to.deep.equal({ passed: 1, failed: 0, failures: [] });
    expect(lastRun().reverted?.failed_run).to.deep.equal({ ...report.reverted?.failed_run, health: lastRun().reverted?.failed_run?.health });
    // The record is the report, and govern status reads it (its schema holds failed_run): CRITICAL, not UNKNOWN.
    expect((await govern(['status', '--var-dir', varDir])).code).to.equal(2);
    // Both name the tree's files as the repository has them, never the checkout in the pull cache.
    expect(report.resources[0].where).to.equal('site.hcl:1');
    for (const text of [r.stdout, fs.readFileSync(path.join(varDir, 'last-run.json'), 'utf8')]) expect(text).to.not.include(path.join(varDir, 'pull'));
  });

  it('a commit whose run fails before applying is returned from too', async () => {
    const good = await lab.commit({ 'site.hcl': site(conf, 'listen 80\\n') }, 'trusted');
    await pull(['--revert-on-failure']);
    await ran(0);
    const bad = await lab.commit({ 'site.hcl': 'pkg "x" {\n  ensure = \n}\n' }, 'trusted');
    await pull(['--revert-on-failure']);
    const r = await run(['--detailed-exitcodes']);
    expect(r.code).to.equal(4);
    // The reason says where, as the repository has the file: the record names the commit beside it.
    expect(lastRun().reverted?.reason).to.match(/^site\.hcl:2:\d+: /);
    expect(lastRun().reverted?.from).to.equal(bad);
    expect(lastRun().reverted?.to).to.equal(good);
    expect(lastRun().commit).to.equal(good);
  });

  it('without --revert-on-failure, a failing commit stays and fails as before: no return, no quarantine', async () => {
    await lab.commit({ 'site.hcl': site(conf, 'listen 80\\n') }, 'trusted');
    await pull();
    await ran(0);
    const bad = await lab.commit({ 'site.hcl': site(conf, 'oops\\n') }, 'trusted');
    await pull();
    const r = await run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.not.include('reverted');
    expect(fs.readFileSync(conf, 'utf8')).to.equal('oops\n');
    // Without the mark, a file without backup = true is not backed up, as before.
    expect(fs.existsSync(path.join(varDir, 'backup'))).to.equal(false);
    expect(fs.realpathSync(dir)).to.match(new RegExp(`/trees/${bad}$`));
    expect(lastRun().commit).to.equal(bad);
    expect(lastRun()).to.not.have.property('reverted');
    expect((await run()).code).to.equal(1);
    const quarantined = await must('git', [`--git-dir=${storeGit()}`, 'for-each-ref', 'refs/govern/quarantine/']);
    expect(quarantined).to.equal('');
    expect((await pull()).stdout).to.equal(`${dir}: already at ${bad} (signed by ops@example.org)\n`);
  });

  describe('with a package from a local apt repository', function () {
    hostExclusive();
    const NAME = 'govern-test-revert';
    let repo: AptTestRepo | undefined;
    before(async function () {
      if (process.getuid?.() !== 0 || !(await have('apt-get')) || !(await have('dpkg-scanpackages'))) this.skip();
      const stale = await dpkgLeftovers(NAME);
      if (stale.length > 0) await dpkgPurge(stale);
      repo = new AptTestRepo(scratchDir('govern-revert-apt-'), [NAME]);
      await repo.build([
        { name: NAME, version: '1.0-1' },
        { name: NAME, version: '1.1-1' },
      ]);
      await repo.add();
    });
    after(async () => {
      const left = await dpkgLeftovers(NAME);
      if (left.length > 0) await dpkgPurge(left);
      await repo?.cleanup();
    });

    it('reinstalls at its version a package the failed run removed, when the good commit does not manage it', async () => {
      const installed = await runner('pkg', [NAME, 'ensure=1.0-1']);
      expect(installed.code, installed.stderr).to.equal(0);
      const good = await lab.commit({ 'site.hcl': site(conf, 'listen 80\\n') }, 'trusted');
      await pull(['--revert-on-failure']);
      await ran(0);
      const bad = await lab.commit({ 'site.hcl': site(conf, 'oops\\n'), 'pkg.hcl': `pkg "${NAME}" {\n  ensure = "absent"\n}\n` }, 'trusted');
      await pull(['--revert-on-failure']);
      const r = await run();
      expect(r.code).to.equal(1);
      expect(r.stdout).to.include(`changed   pkg:${NAME}  uninstalled 1.0-1`);
      expect(r.stderr).to.include(`putting pkg:${NAME} back at 1.0-1, its version before ${bad}`);
      expect(await dpkgStatus(NAME)).to.equal('1.0-1 installed');
      expect(lastRun().commit).to.equal(good);
    });

    it('puts back the version the failed run upgraded, when the good commit leaves the package as it finds it', async () => {
      const installed = await runner('pkg', [NAME, 'ensure=1.0-1']);
      expect(installed.code, installed.stderr).to.equal(0);
      const pkg = (ensure: string) => `pkg "${NAME}" {\n  ensure = "${ensure}"\n}\n`;
      const good = await lab.commit({ 'site.hcl': site(conf, 'listen 80\\n'), 'pkg.hcl': pkg('present') }, 'trusted');
      await pull(['--revert-on-failure']);
      await ran(0);
      expect(await dpkgStatus(NAME)).to.equal('1.0-1 installed');
      const bad = await lab.commit({ 'site.hcl': site(conf, 'oops\\n'), 'pkg.hcl': pkg('1.1-1') }, 'trusted');
      await pull(['--revert-on-failure']);
      const r = await run();
      expect(r.code).to.equal(1);
      expect(r.stdout).to.include(`changed   pkg:${NAME}  upgraded from 1.0-1 to 1.1-1`);
      expect(r.stderr).to.include(`putting pkg:${NAME} back at 1.0-1, its version before ${bad}`);
      expect(await dpkgStatus(NAME)).to.equal('1.0-1 installed');
      expect(lastRun().commit).to.equal(good);
      expect(lastRun().reverted?.from).to.equal(bad);
    });
  });

  describe('with a sysv service', function () {
    hostExclusive();
    const NAME = 'govern-test-revert-svc';
    let script: SysvScript | undefined;
    before(function () {
      if (process.getuid?.() !== 0 || fs.existsSync('/run/systemd/system')) this.skip();
    });
    afterEach(async () => {
      await script?.remove();
    });

    it('stops and disables again a service the failed run started and enabled, that the good commit does not manage', async () => {
      script = new SysvScript(NAME);
      script.install();
      const running = async () => (await runCommand('start-stop-daemon', ['--status', '--pidfile', script!.pidfile, '--exec', '/bin/sleep'])).code === 0;
      const enabled = () => fs.readdirSync('/etc/rc2.d').some((f) => f.endsWith(NAME) && f.startsWith('S'));
      await lab.commit({ 'site.hcl': site(conf, 'listen 80\\n') }, 'trusted');
      await pull(['--revert-on-failure']);
      await ran(0);
      const service = `service "${NAME}" {\n  ensure   = "running"\n  enable   = true\n  provider = "sysv"\n}\n`;
      const bad = await lab.commit({ 'site.hcl': site(conf, 'oops\\n'), 'svc.hcl': service }, 'trusted');
      await pull(['--revert-on-failure']);
      const r = await run();
      expect(r.code).to.equal(1);
      expect(r.stdout).to.include(`changed   service:${NAME}  started; enabled`);
      expect(r.stderr).to.include(`putting service:${NAME} back to ensure=stopped enable=false, as it was before ${bad}`);
      expect(await running()).to.equal(false);
      expect(enabled()).to.equal(false);
    });
  });
});
