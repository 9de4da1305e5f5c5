// `govern run` with apt_repository and pkg against the real apt and dpkg, apt confined to the test's
// own directory (APT_CONFIG): the repository added and its package installed from it in the same run,
// the package checked after the repository without an edge in the state file and exactly one apt-get
// update; nothing changed, no update; noop on a fresh host; a key that did not sign the repository
// refused by apt. In both runner modes.
import { expect } from 'chai';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { dpkgPurge, dpkgStatus, have } from '../pkg/repos.js';
import { confinedApt, makeKey, removeKeys, SignedAptRepo, type TestKey } from './signed-repo.js';
import { hostExclusive } from '../../support/host-lock.js';

const HELLO = 'govern-test-repos-run';

describe('govern run with apt_repository and pkg (real apt and dpkg, signed local repository)', function () {
  hostExclusive();
  this.timeout(300_000);
  let repo: SignedAptRepo;
  let key: TestKey;
  let other: TestKey;

  before(async function () {
    if (process.getuid?.() !== 0 || !(await have('apt-get')) || !(await have('gpg')) || !(await have('dpkg-scanpackages'))) this.skip();
    [key, other] = [await makeKey('govern-repos-run'), await makeKey('govern-repos-intruder')];
    repo = new SignedAptRepo([HELLO]);
    await repo.build([{ name: HELLO, version: '1.0-1' }], key);
  });

  after(async () => {
    removeKeys(key, other);
    await repo?.cleanup();
  });

  afterEach(async () => {
    if ((await dpkgStatus(HELLO)) !== 'unknown') await dpkgPurge([HELLO]);
  });

  /** The package first in the file: the order comes from the autorequire, not from the file. */
  function tree(signedBy: TestKey): string {
    const states = tempDir('govern-repos-states-');
    writeFile(
      path.join(states, 'site.hcl'),
      `pkg "${HELLO}" {
  ensure = "present"
}

apt_repository "govern-test" {
  uris      = ["file:${repo.dir}"]
  suites    = ["./"]
  signed_by = <<EOK
${signedBy.armored}EOK
}
`,
    );
    return states;
  }

  async function run(states: string, env: Record<string, string>, ...extra: string[]): Promise<{ code: number | null; report: RunReport }> {
    const r = await govern(['run', states, '--json', ...extra], { env });
    return { code: r.code, report: JSON.parse(r.stdout) as RunReport };
  }

  const updates = (report: RunReport) => report.resources.flatMap((r) => r.log).filter((line) => line.startsWith('$ apt-get update')).length;

  it('govern graph orders the package after the repository, with no edge in the state file #once', async () => {
    const r = await govern(['graph', tree(key)]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.contain(`"apt_repository:govern-test" -> "pkg:${HELLO}" [label="autorequire"];`);
  });

  it('a misspelt key, a value that would break the deb822 file and a bad fingerprint are refused at their lines, before anything is applied', async () => {
    const states = tempDir('govern-repos-bad-');
    writeFile(
      path.join(states, 'site.hcl'),
      `apt_repository "bad" {
  uris        = ["file:/srv/repo"]
  suite       = ["./"]
  components  = ["main contrib"]
  fingerprint = ["1234"]
}
`,
    );
    const r = await govern(['run', states]);
    expect(r.code).to.equal(1);
    const lines = r.stderr.split('\n');
    expect(lines.find((l) => l.includes(':3:'))).to.match(/unknown key "suite".*did you mean "suites"/);
    expect(lines.find((l) => l.includes(':4:'))).to.match(/components.*"main contrib".*not one word/);
    expect(lines.find((l) => l.includes(':5:'))).to.match(/fingerprint.*"1234".*not a key fingerprint/);
    expect(r.stdout).to.not.match(/changed/);
  });

  for (const mode of MODES) {
    it(`the repository, one apt-get update, then the package from it, in one run; nothing changed, no update (${mode} runners)`, async () => {
      const apt = confinedApt();
      const env = { ...apt.env, GOVERN_RUNNER_MODE: mode };
      const noop = await run(tree(key), env, '--noop');
      expect(noop.code, JSON.stringify(noop.report.resources)).to.equal(0);
      expect(noop.report.resources.map((r) => [r.ref, r.status, r.message])).to.deep.equal([
        ['apt_repository:govern-test', 'changed', `Would have created ${path.join(apt.sourcesDir, 'govern-test.sources')}, created ${path.join(apt.keyringsDir, 'govern-test.asc')}`],
        [`pkg:${HELLO}`, 'changed', 'Would have installed (not in the configured sources yet: apt_repository:govern-test would change them first)'],
      ]);
      expect(updates(noop.report)).to.equal(0);

      const first = await run(tree(key), env);
      expect(first.code, JSON.stringify(first.report.resources)).to.equal(0);
      expect(first.report.resources.map((r) => [r.ref, r.status])).to.deep.equal([
        ['apt_repository:govern-test', 'changed'],
        [`pkg:${HELLO}`, 'changed'],
      ]);
      expect(first.report.resources[0].message).to.match(/; apt-get update pending$/);
      expect(updates(first.report)).to.equal(1);
      expect(await dpkgStatus(HELLO)).to.equal('1.0-1 installed');

      const settled = await run(tree(key), env);
      expect(settled.report.summary).to.include({ resources: 2, changed: 0, unchanged: 2 });
      expect(updates(settled.report)).to.equal(0);
    });
  }

  it('a key that did not sign the repository: apt refuses it at the update, and the package fails with apt\'s message', async () => {
    const apt = confinedApt();
    const { code, report } = await run(tree(other), apt.env);
    expect(code).to.equal(1);
    expect(report.resources.map((r) => [r.ref, r.status])).to.deep.equal([
      ['apt_repository:govern-test', 'changed'],
      [`pkg:${HELLO}`, 'failed'],
    ]);
    expect(report.resources[1].message).to.include('apt-get update -q');
    expect(report.resources[1].log.join('\n')).to.include(`NO_PUBKEY ${key.fingerprint.slice(-16)}`);
    expect(await dpkgStatus(HELLO)).to.equal('unknown');
  });
});
