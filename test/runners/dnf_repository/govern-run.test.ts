// `govern run` with dnf_repository and pkg against the real dnf and rpm of this machine (Debian's
// packages; provider = "dnf" named, as the pkg tests do): a local repository made with createrepo_c,
// added and its package installed from it in the same run, with exactly one dnf makecache; the
// second run changes nothing and refreshes nothing; noop shows the .repo file's diff. Both runner modes.
// Then with gpgcheck: the packages signed (rpmsign) with a key the test makes, installed with that
// key as gpgkey (dnf imports it into rpm's database; the test removes it), refused with another.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { runCommand } from '../../../src/shared/process.js';
import { DnfTestRepo, have, must, rpmStatus, scratchDir } from '../pkg/repos.js';
import { makeKey, removeKeys, type TestKey } from '../apt_repository/signed-repo.js';
import { hostExclusive } from '../../support/host-lock.js';

const HELLO = 'govern-test-repos-dnf';
const REPOS_DIR = '/etc/yum.repos.d';

describe('govern run with dnf_repository and pkg (real dnf and rpm, local repository)', function () {
  hostExclusive();
  this.timeout(300_000);
  let repo: DnfTestRepo;
  let madeReposDir = false;

  before(async function () {
    if (process.getuid?.() !== 0 || !(await have('dnf')) || !(await have('rpmbuild')) || !(await have('createrepo_c'))) this.skip();
    await must('rpm', ['--initdb']);
    if ((await rpmStatus(HELLO)) !== 'absent') await must('rpm', ['-e', HELLO]);
    madeReposDir = !fs.existsSync(REPOS_DIR);
    repo = new DnfTestRepo(scratchDir('govern-repos-dnf-'), [HELLO]);
    await repo.build([{ name: HELLO, version: '1.0-1' }]);
  });

  after(async () => {
    await repo?.cleanup();
    if (madeReposDir && fs.existsSync(REPOS_DIR) && fs.readdirSync(REPOS_DIR).length === 0) fs.rmdirSync(REPOS_DIR);
  });

  afterEach(async () => {
    if ((await rpmStatus(HELLO)) !== 'absent') await must('rpm', ['-e', HELLO]);
    fs.rmSync(repo.repoFile, { force: true });
  });

  function tree(description: string, gpgkey?: string): string {
    const states = tempDir('govern-repos-dnf-states-');
    writeFile(
      path.join(states, 'site.hcl'),
      `pkg "${HELLO}" {
  ensure   = "present"
  provider = "dnf"
}

dnf_repository "${repo.repoId}" {
  description = "${description}"
  baseurl     = ["file://${path.join(repo.dir, 'repo')}"]
  gpgcheck    = ${gpgkey === undefined ? 'false' : `true\n  gpgkey      = ["file://${gpgkey}"]`}
}
`,
    );
    return states;
  }

  async function run(states: string, mode: string, ...extra: string[]): Promise<RunReport> {
    const r = await govern(['run', states, '--json', '--runner-mode', mode, ...extra]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).to.equal(0);
    return JSON.parse(r.stdout) as RunReport;
  }

  const makecaches = (report: RunReport) => report.resources.flatMap((r) => r.log).filter((line) => line.startsWith('$ dnf -y -q makecache')).length;

  for (const mode of MODES) {
    it(`the .repo file, one dnf makecache, then the package from it, in one run; nothing changed, no refresh (${mode} runners)`, async () => {
      const first = await run(tree('govern tests'), mode);
      expect(first.resources.map((r) => [r.ref, r.status])).to.deep.equal([
        [`dnf_repository:${repo.repoId}`, 'changed'],
        [`pkg:${HELLO}`, 'changed'],
      ]);
      expect(first.resources[0].message).to.equal(`created ${repo.repoFile}; dnf makecache pending`);
      expect(makecaches(first)).to.equal(1);
      expect(await rpmStatus(HELLO)).to.equal('0:1.0-1');
      expect(fs.readFileSync(repo.repoFile, 'utf8')).to.equal(
        `# Written by govern (dnf_repository "${repo.repoId}"); a change made here is undone at its next run.\n[${repo.repoId}]\nname=govern tests\n` +
          `baseurl=file://${path.join(repo.dir, 'repo')}\nenabled=1\ngpgcheck=0\n`,
      );
      expect(fs.statSync(repo.repoFile).mode & 0o777).to.equal(0o644);

      const settled = await run(tree('govern tests'), mode);
      expect(settled.summary).to.include({ resources: 2, changed: 0, unchanged: 2 });
      expect(makecaches(settled)).to.equal(0);

      const noop = await run(tree('govern test packages'), mode, '--noop');
      expect(noop.resources[0]).to.include({ status: 'changed', message: `Would have changed ${repo.repoFile} (content)` });
      expect(noop.resources[0].diff?.split('\n')).to.include.members(['-name=govern tests', '+name=govern test packages']);
      expect(makecaches(noop)).to.equal(0);
    });
  }

  describe('with gpgcheck, the packages signed', () => {
    let key: TestKey;
    let other: TestKey;
    const keyFile = (k: TestKey) => writeFile(path.join(tempDir('govern-repos-dnf-key-'), 'key.asc'), k.armored);
    /** rpm's name for a key it imported: gpg-pubkey-<the last 8 hex digits of its id, lower case>. */
    const imported = (k: TestKey) => `gpg-pubkey-${k.fingerprint.slice(-8).toLowerCase()}`;

    before(async function () {
      if (!(await have('rpmsign')) || !(await have('gpg'))) this.skip();
      // rpm's RSA signatures are the ones every rpm verifies.
      [key, other] = [await makeKey('govern-repos-rpm', 'rsa2048'), await makeKey('govern-repos-rpm-other', 'rsa2048')];
      const rpms = path.join(repo.dir, 'repo');
      for (const file of fs.readdirSync(rpms).filter((f) => f.endsWith('.rpm'))) {
        await must('rpmsign', ['--addsign', '--define', `_gpg_name ${key.fingerprint}`, '--define', `_gpg_path ${key.home}`, '--define', '__gpg /usr/bin/gpg', path.join(rpms, file)]);
      }
      await must('createrepo_c', ['--quiet', rpms]);
    });

    after(() => removeKeys(key, other));

    // rpm checks a signature against every key it holds: each case starts with neither imported.
    afterEach(async () => {
      for (const k of [key, other]) if (k && (await runCommand('rpm', ['-q', imported(k)])).code === 0) await must('rpm', ['-e', '--allmatches', imported(k)]);
    });

    it('the repository\'s key as gpgkey: dnf imports it and installs the signed package', async () => {
      const report = await run(tree('govern tests', keyFile(key)), 'persistent');
      expect(report.resources.map((r) => [r.ref, r.status])).to.deep.equal([
        [`dnf_repository:${repo.repoId}`, 'changed'],
        [`pkg:${HELLO}`, 'changed'],
      ]);
      expect(await rpmStatus(HELLO)).to.equal('0:1.0-1');
    });

    it('another key as gpgkey: dnf refuses the package, and the run fails', async () => {
      const r = await govern(['run', tree('govern tests', keyFile(other)), '--json']);
      expect(r.code).to.equal(1);
      const report = JSON.parse(r.stdout) as RunReport;
      expect(report.resources.map((x) => [x.ref, x.status])).to.deep.equal([
        [`dnf_repository:${repo.repoId}`, 'changed'],
        [`pkg:${HELLO}`, 'failed'],
      ]);
      expect(report.resources[1].log.join('\n')).to.match(/GPG|public key/i);
      expect(await rpmStatus(HELLO)).to.equal('absent');
    });
  });
});
