// Eight mount resources on one table, run with four jobs in both runner modes: each holds the
// table's lock from reading it to writing it, so none writes over another's entry (findmnt reads
// all eight), and a second run changes nothing.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const COUNT = 8;

for (const mode of ['persistent', 'oneshot']) {
  describe(`mount runner: ${COUNT} entries of one table with --jobs 4 (${mode} runners)`, function () {
    this.timeout(120_000);

    it('keeps every entry, each reported added, then nothing to change', async () => {
      const root = tempDir('govern-mount-table-');
      const fstab = writeFile(path.join(root, 'fstab'), '# the test\'s table\n');
      const points = Array.from({ length: COUNT }, (_, i) => path.join(root, `point${i}`));
      for (const p of points) fs.mkdirSync(p);
      const states = writeFile(
        path.join(root, 'states', 'mounts.hcl'),
        points.map((p, i) => `mount "${p}" {\n  ensure = "present"\n  device = "govern-test-${i}"\n  fstype = "tmpfs"\n  fstab = "${fstab}"\n}\n`).join(''),
      );
      const run = async () => {
        const r = await govern(['run', states, '--json', '--runner-mode', mode, '--jobs', '4']);
        return { code: r.code, report: JSON.parse(r.stdout) as RunReport, stderr: r.stderr };
      };
      const first = await run();
      expect(first.code, first.stderr).to.equal(0);
      expect(first.report.resources.map((r) => r.message).sort()).to.deep.equal(points.map((p) => `added ${p} to ${fstab}`).sort());
      const listed = JSON.parse(execFileSync('findmnt', ['--fstab', '--tab-file', fstab, '--json', '-o', 'SOURCE,TARGET'], { encoding: 'utf8' })) as { filesystems: { source: string; target: string }[] };
      expect(listed.filesystems.map((f) => f.target).sort()).to.deep.equal([...points].sort());
      const second = await run();
      expect(second.report.resources.map((r) => r.status)).to.deep.equal(points.map(() => 'unchanged'));
    });
  });
}
