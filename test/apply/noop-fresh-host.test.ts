// `govern run --noop` on a host that has none of what the tree sets up: a resource whose check needs
// what an earlier resource would create (the user owning a file, the package shipping a service)
// says what it would do and names that resource (GOVERN_NOOP_PENDING), its dependents are checked
// too, and the exit code says "would change". Real useradd, real apt with a local repository, a
// real init script shipped in the package; the real run afterwards does what the noop said.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, RUNNERS_DIR } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { AptTestRepo, dpkgPurge, dpkgStatus, have, scratchDir } from '../runners/pkg/repos.js';
import { SysvScript } from '../runners/service/support/sysv-script.js';
import { entry, removeAccounts } from '../runners/user/support.js';
import { hostExclusive } from '../support/host-lock.js';

const USER = 'govnoopfresh';
const PKG = 'govern-test-noopfresh';

function run(states: string, ...flags: string[]) {
  return govern(['run', '--runners-dir', RUNNERS_DIR, ...flags, states]);
}

describe('noop on a fresh host', function () {
  hostExclusive();
  this.timeout(300_000);

  before(async function () {
    if (process.getuid?.() !== 0) this.skip();
    await removeAccounts([USER], [USER]);
  });
  after(async () => {
    await removeAccounts([USER], [USER]);
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`a directory owned by a user the run would create (${mode} runners): the plan, the note, exit 2 with --detailed-exitcodes, nothing made`, async () => {
      const dir = tempDir('govern-noop-fresh-');
      const srv = path.join(dir, 'srv');
      const states = path.join(dir, 'states');
      writeFile(
        path.join(states, 'app.hcl'),
        `user "${USER}" {
  system = true
}
file "${srv}" {
  ensure = "directory"
  owner  = "${USER}"
  group  = "${USER}"
  mode   = "0755"
}
file "${srv}/data" {
  ensure = "directory"
  owner  = "${USER}"
  group  = "root"
  mode   = "0750"
}
`,
      );
      const r = await run(states, '--noop', '--json', '--detailed-exitcodes', '--runner-mode', mode);
      expect(r.code, r.stderr).to.equal(2);
      const report = JSON.parse(r.stdout) as RunReport;
      expect(report.resources.map((x) => [x.ref, x.status, x.message])).to.deep.equal([
        [`user:${USER}`, 'changed', `Would have created system user ${USER}`],
        [`file:${srv}`, 'changed', `Would have created directory (user "${USER}" and group "${USER}" do not exist yet: user:${USER} would create them)`],
        [`file:${srv}/data`, 'changed', `Would have created directory (user "${USER}" does not exist yet: user:${USER} would create it)`],
      ]);
      expect(await entry('passwd', USER)).to.equal(undefined);
      expect(fs.existsSync(srv)).to.equal(false);

      // The real run does what the noop said, and a noop after it has nothing to say.
      const real = await run(states, '--runner-mode', mode);
      expect(real.code, real.stdout + real.stderr).to.equal(0);
      expect(fs.statSync(path.join(srv, 'data')).uid).to.equal(Number((await entry('passwd', USER))![2]));
      const again = await run(states, '--noop', '--detailed-exitcodes', '--runner-mode', mode);
      expect(again.code, again.stdout).to.equal(0);
      await removeAccounts([USER], [USER]);
    });
  }

  it('a user no resource of the run creates is still an error, and its dependents are skipped', async () => {
    const dir = tempDir('govern-noop-fresh-');
    const states = path.join(dir, 'states');
    writeFile(
      path.join(states, 'app.hcl'),
      `file "${dir}/srv" {
  ensure = "directory"
  owner  = "${USER}"
  group  = "root"
  mode   = "0755"
}
file "${dir}/srv/data" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}
`,
    );
    const r = await run(states, '--noop');
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include(`failed    file:${dir}/srv (${states}/app.hcl:1)  unknown user "${USER}" (getent passwd ${USER} found no entry)`);
    expect(r.stdout).to.include(`skipped   file:${dir}/srv/data`);
  });

  describe('a package and its service (real apt, a local repository, the init script in the package)', () => {
    let repo: AptTestRepo;
    let script: SysvScript;

    before(async function () {
      if (!(await have('apt-get')) || !(await have('dpkg-scanpackages'))) this.skip();
      if (fs.existsSync('/run/systemd/system')) this.skip(); // the sysv provider: no systemd as init
      if ((await dpkgStatus(PKG)) !== 'unknown') await dpkgPurge([PKG]);
      script = new SysvScript(PKG);
      repo = new AptTestRepo(scratchDir('govern-noop-fresh-apt-'), [PKG]);
      await repo.build([{ name: PKG, version: '1.0-1', files: { [`/etc/init.d/${PKG}`]: { content: script.text(), mode: 0o755 } } }]);
      await repo.add();
    });
    after(async () => {
      await script?.remove();
      await repo?.cleanup();
    });

    it('noop: the service would start once the package is installed; the real run installs and starts it', async () => {
      const dir = tempDir('govern-noop-fresh-');
      const states = path.join(dir, 'states');
      writeFile(
        path.join(states, 'app.hcl'),
        `pkg "${PKG}" {
  ensure = "present"
}
service "${PKG}" {
  ensure   = "running"
  provider = "sysv"
  after    = ["pkg:${PKG}"]
}
`,
      );
      const r = await run(states, '--noop', '--json');
      expect(r.code, r.stderr).to.equal(0);
      const report = JSON.parse(r.stdout) as RunReport;
      expect(report.resources.map((x) => [x.ref, x.status, x.message])).to.deep.equal([
        [`pkg:${PKG}`, 'changed', 'Would have installed'],
        [`service:${PKG}`, 'changed', `Would have started (service ${PKG} does not exist yet: pkg:${PKG} would install it)`],
      ]);
      expect(await dpkgStatus(PKG)).to.equal('unknown');

      const real = await run(states);
      expect(real.code, real.stdout + real.stderr).to.equal(0);
      expect(script.pid()).to.be.a('number');
    });

    it('noop: a package the configured sources do not have fails, as the real run would', async () => {
      const dir = tempDir('govern-noop-fresh-');
      const states = path.join(dir, 'states');
      writeFile(path.join(states, 'app.hcl'), `pkg "${PKG}-nosuch" {\n  ensure = "present"\n}\n`);
      const r = await run(states, '--noop');
      expect(r.code).to.equal(1);
      expect(r.stdout).to.include(`failed    pkg:${PKG}-nosuch (${states}/app.hcl:1)  apt knows no package named "${PKG}-nosuch"`);
    });
  });
});
