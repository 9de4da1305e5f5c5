// ensure = "absent" with the keys that only matter when present (a file's contents, a user's shell
// and home, a mount's device): the real file, user and mount runners; the user and the mount do
// not exist, so nothing of the host changes but the test's own file.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('ensure = "absent" ignores the keys that only matter when present', function () {
  this.timeout(120_000);

  it('removes what it is told to, the other keys left out with a note under -v only', async () => {
    const dir = tempDir('govern-absent-');
    const file = writeFile(path.join(dir, 'old.conf'), 'old\n');
    const user = `govern-absent-${process.pid}`;
    const states = writeFile(
      path.join(tempDir('govern-absent-states-'), 'site.hcl'),
      `file "${file}" {\n  ensure = "absent"\n  contents = "new\\n"\n  owner = "root"\n  mode = "0644"\n}\n` +
        `user "${user}" {\n  ensure = "absent"\n  shell = "/bin/sh"\n  home = "${dir}/home"\n}\n` +
        `mount "${dir}/mnt" {\n  ensure = "absent"\n  device = "/dev/null"\n  fstype = "ext4"\n}\n`,
    );
    const r = await govern(['run', '-v', states]);
    expect(r.code, r.stderr + r.stdout).to.equal(0);
    expect(fs.existsSync(file)).to.equal(false);
    expect(r.stderr).to.contain(`govern: ${states}:1: file:${file}: ensure = "absent": contents ignored (only for ensure = "present")`);
    expect(r.stderr).to.contain(`govern: ${states}:7: user:${user}: ensure = "absent": home, shell ignored (only for ensure = "present")`);
    expect(r.stderr).to.contain(`govern: ${states}:12: mount:${dir}/mnt: ensure = "absent": device, fstype ignored (only for ensure = "mounted" or "unmounted" or "present")`);
    const quiet = await govern(['run', states]);
    expect(quiet.code, quiet.stderr).to.equal(0);
    expect(quiet.stderr).not.to.contain('ignored');
  });

  it('still refuses a key that is no key of the runner, and one refused for another reason than ensure', async () => {
    const states = writeFile(path.join(tempDir('govern-absent-states-'), 'site.hcl'), `file "/tmp/govern-absent-x" {\n  ensure = "absent"\n  contnts = "x"\n}\n`);
    const r = await govern(['run', '--noop', states]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('unknown key "contnts" (did you mean "contents"?)');
  });
});
