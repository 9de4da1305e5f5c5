// `govern run` with a real tmpfs mount and the files around it, in both runner modes: a file under the
// mount point is written after the mount (on the mounted file system, not hidden under it), and a
// retired mount is unmounted before its mount point directory is removed.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const mountedOn = (dir: string) => fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((l) => l.split(' ')[4] === dir);

for (const mode of MODES) {
  describe(`govern run: a mount and the files under it (real tmpfs, ${mode} runners)`, function () {
    this.timeout(120_000);
    let root: string;
    let point: string;
    afterEach(() => {
      while (mountedOn(point)) execFileSync('umount', [point]);
    });

    const run = async (tree: string): Promise<RunReport> => {
      const r = await govern(['run', tree, '--json', '--runner-mode', mode]);
      expect(r.code, `${r.stdout}\n${r.stderr}`).to.equal(0);
      return JSON.parse(r.stdout) as RunReport;
    };

    it('the file under the mount point is written on the mounted file system, and the second run changes nothing', async () => {
      root = tempDir('govern-mount-run-');
      point = path.join(root, 'data');
      const tree = tempDir('govern-mount-tree-');
      // The file comes first in the state file: only the implicit edge puts it after the mount.
      writeFile(
        path.join(tree, 'site.hcl'),
        `file "${point}/app.conf" {\n  ensure   = "present"\n  contents = "on the tmpfs\\n"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n}\n\n` +
          `file "${point}" {\n  ensure = "directory"\n  owner  = "root"\n  group  = "root"\n  mode   = "0755"\n}\n\n` +
          `mount "${point}" {\n  device = "govern-test"\n  fstype = "tmpfs"\n  options = "size=1m,mode=0755"\n  fstab  = "${root}/fstab"\n}\n`,
      );
      const first = await run(tree);
      expect(first.resources.map((r) => r.ref)).to.deep.equal([`file:${point}`, `mount:${point}`, `file:${point}/app.conf`]);
      expect(first.summary).to.include({ changed: 3, failed: 0 });
      const second = await run(tree);
      expect(second.summary).to.include({ changed: 0, unchanged: 3 });
      execFileSync('umount', [point]);
      // Under the mount, the directory is as the run found it: empty.
      expect(fs.readdirSync(point)).to.deep.equal([]);
    });

    it('a mount made absent is unmounted before its mount point directory is removed', async () => {
      root = tempDir('govern-mount-run-');
      point = path.join(root, 'data');
      fs.mkdirSync(point);
      fs.writeFileSync(path.join(root, 'fstab'), `govern-test\t${point}\ttmpfs\tsize=1m\t0\t0\n`);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'govern-test', point]);
      const tree = tempDir('govern-mount-tree-');
      writeFile(path.join(tree, 'site.hcl'), `file "${point}" {\n  ensure = "absent"\n  force  = true\n}\n\nmount "${point}" {\n  ensure = "absent"\n  fstab  = "${root}/fstab"\n}\n`);
      const first = await run(tree);
      expect(first.resources.map((r) => [r.ref, r.status])).to.deep.equal([[`mount:${point}`, 'changed'], [`file:${point}`, 'changed']]);
      expect(fs.existsSync(point)).to.equal(false);
      expect(fs.readFileSync(path.join(root, 'fstab'), 'utf8')).to.equal('');
      expect((await run(tree)).summary).to.include({ changed: 0, failed: 0 });
    });
  });
}
