// `govern run` with ini and block resources on one file, with four jobs in both runner modes: each
// holds the file's lock from reading it to writing it, so none writes over another's key or block;
// a noop run before shows the diffs and changes nothing; a second run changes nothing.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { snapshot } from '../file/support.js';
import { MODES } from '../../support/runner-modes.js';

const KEYS = 8;

for (const mode of MODES) {
  describe(`govern run: ${KEYS} ini keys and 2 blocks in one file with --jobs 4 (${mode} runners)`, function () {
    this.timeout(180_000);

    it('keeps every key and block, each reported, then nothing to change', async () => {
      const root = tempDir('govern-ini-run-');
      const etc = path.join(root, 'etc');
      const conf = writeFile(path.join(etc, 'app.ini'), '; the app\n[main]\nold = 1\n\n[extra]\n');
      const keys = Array.from({ length: KEYS }, (_, i) => ({ section: i % 2 === 0 ? 'main' : 'extra', key: `k${i}`, value: `v${i}` }));
      const states = writeFile(
        path.join(root, 'states', 'app.hcl'),
        [
          ...keys.map((k) => `ini "${k.key}" {\n  path    = "${conf}"\n  section = "${k.section}"\n  key     = "${k.key}"\n  value   = "${k.value}"\n}\n`),
          `block "first" {\n  path    = "${conf}"\n  content = "a = 1\\n"\n  marker_prefix = ";"\n  insert_before = "BOF"\n}\n`,
          `block "second" {\n  path    = "${conf}"\n  content = "b = 2\\n"\n  marker_prefix = ";"\n}\n`,
        ].join('\n'),
      );
      const run = async (...extra: string[]) => {
        const r = await govern(['run', states, '--json', '--runner-mode', mode, '--jobs', '4', ...extra]);
        return { code: r.code, report: JSON.parse(r.stdout) as RunReport, stderr: r.stderr };
      };

      const before = snapshot(etc);
      const noop = await run('--noop');
      expect(noop.code, noop.stderr).to.equal(0);
      const k0 = noop.report.resources.find((r) => r.ref === 'ini:k0')!;
      expect(k0.message).to.equal('Would have added k0 in [main] (line 4)');
      expect(k0.diff).to.include('+k0 = v0');
      expect(snapshot(etc), 'noop changed nothing').to.deep.equal(before);

      const first = await run();
      expect(first.code, first.stderr).to.equal(0);
      expect(first.report.resources.map((r) => r.status)).to.deep.equal([...keys, 1, 2].map(() => 'changed'));
      const text = fs.readFileSync(conf, 'utf8');
      const lines = text.split('\n');
      for (const k of keys) {
        const header = lines.indexOf(`[${k.section}]`);
        const next = lines.findIndex((l, i) => i > header && l.startsWith('['));
        const at = lines.indexOf(`${k.key} = ${k.value}`);
        expect(at, `${k.key} in [${k.section}] of\n${text}`).to.be.greaterThan(header).and.lessThan(next < 0 ? lines.length : next);
      }
      expect(text.startsWith('; BEGIN govern first\na = 1\n; END govern first\n; the app\n[main]\nold = 1\n'), text).to.equal(true);
      expect(text.endsWith('; BEGIN govern second\nb = 2\n; END govern second\n'), text).to.equal(true);

      const settled = snapshot(etc);
      const second = await run();
      expect(second.code, second.stderr).to.equal(0);
      expect(second.report.summary).to.include({ changed: 0, failed: 0 });
      expect(snapshot(etc)).to.deep.equal(settled);
    });
  });
}
