// What a purge keeps is worked out when the purge is called, not when the run starts: a user the
// run creates has a home by the time its ~/.ssh is purged, so the authorized_keys an earlier
// authorized_key resource of the same run wrote there is kept. A real user (useradd through the
// user runner, removed after), in a home under the temporary directory.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { runCommand } from '../../../src/shared/process.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { hostExclusive } from '../../support/host-lock.js';

const USER = `govern-pnu-${process.pid}`;
const KEY = 'AAAAC3NzaC1lZDI1NTE5AAAAIGovZXJuLXB1cmdlLW5ldy11c2VyLXRlc3Qta2V5LTAw';

describe('file runner: purge = true in the home of a user the same run creates', function () {
  hostExclusive();
  this.timeout(120_000);
  // Not a tempDir: those are removed after each test, and the user is removed after.
  const home = path.join(os.tmpdir(), `${USER}-home`);
  after(async () => {
    await runCommand('userdel', ['--', USER], { timeoutMs: 60_000 });
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('keeps the authorized_keys written earlier in the run, removes the stray entry', async () => {
    writeFile(path.join(home, '.ssh', 'stray'), 'left over\n');
    const states = writeFile(
      path.join(tempDir('govern-pnu-'), 'tree.hcl'),
      `user "${USER}" {\n  home = "${home}"\n  shell = "/bin/sh"\n}\n` +
        `authorized_key "pnu" {\n  user = "${USER}"\n  type = "ssh-ed25519"\n  key = "${KEY}"\n}\n` +
        `file "${home}/.ssh" {\n  ensure = "directory"\n  owner = "${USER}"\n  group = "${USER}"\n  mode = "0700"\n  purge = true\n}\n`,
    );
    // The key's runner fixes ~/.ssh's owner itself; the purge comes after it, in definition order.
    const r = await govern(['run', '--json', states]);
    const report = JSON.parse(r.stdout) as RunReport;
    const byRef = new Map(report.resources.map((x) => [x.ref, x]));
    expect(report.resources.map((x) => x.ref)).to.deep.equal([`user:${USER}`, 'authorized_key:pnu', `file:${home}/.ssh`]);
    expect(byRef.get(`file:${home}/.ssh`)?.message).to.match(/removed 1 entry not managed: stray$/);
    expect(r.code, JSON.stringify(report.resources.map((x) => x.message))).to.equal(0);
    expect(fs.readdirSync(path.join(home, '.ssh'))).to.deep.equal(['authorized_keys']);
    expect(fs.readFileSync(path.join(home, '.ssh', 'authorized_keys'), 'utf8')).to.equal(`ssh-ed25519 ${KEY} pnu\n`);
  });
});
