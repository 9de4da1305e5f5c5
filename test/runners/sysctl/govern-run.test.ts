// `govern run` of two sysctl keys persisted in one named drop-in (a router's two forwarding keys):
// each keeps its own line, the second run changes nothing, and removing one keeps the other; in both
// runner modes and with several jobs. apply = false: the test writes no kernel value.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const KEYS = ['net.ipv4.ip_forward', 'net.ipv6.conf.all.forwarding'];

for (const mode of MODES) {
  for (const jobs of ['1', '4']) {
    describe(`govern run: sysctl keys sharing one drop-in (${mode} runners, ${jobs} jobs)`, function () {
      this.timeout(120_000);
      const run = async (tree: string): Promise<RunReport> => {
        const r = await govern(['run', tree, '--json', '--runner-mode', mode, '--jobs', jobs]);
        expect(r.code, `${r.stdout}\n${r.stderr}`).to.equal(0);
        return JSON.parse(r.stdout) as RunReport;
      };
      const tree = (file: string, ensure: string[]) => {
        const states = tempDir('govern-sysctl-tree-');
        writeFile(path.join(states, 'router.hcl'), KEYS.map((k, i) => `sysctl "${k}" {\n  ensure = "${ensure[i]}"\n${ensure[i] === 'present' ? '  value  = "1"\n  apply  = false\n' : ''}  file   = "${file}"\n}\n`).join('\n'));
        return states;
      };

      it('both lines kept, no change on the second run, one removed and the other kept', async () => {
        const file = path.join(tempDir('govern-sysctl-'), '60-router.conf');
        const both = tree(file, ['present', 'present']);
        expect((await run(both)).summary).to.include({ changed: 2, failed: 0 });
        const text = fs.readFileSync(file, 'utf8');
        for (const k of KEYS) expect(text).to.contain(`\n${k} = 1\n`);
        expect((await run(both)).summary).to.include({ changed: 0, unchanged: 2 });
        expect((await run(tree(file, ['absent', 'present']))).summary).to.include({ changed: 1, failed: 0 });
        expect(fs.readFileSync(file, 'utf8')).to.equal(`# Managed by govern: sysctl\n${KEYS[1]} = 1\n`);
        await run(tree(file, ['absent', 'absent']));
        expect(fs.existsSync(file)).to.equal(false);
      });
    });
  }
}
