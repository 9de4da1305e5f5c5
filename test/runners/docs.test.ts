// The runners' documentation agrees with what the runners say about themselves: each built-in
// runner's keys table is the one its description gives, docs/runners.md documents every part of the
// description format, and its two example runners work through `govern run` as written.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { AUTOREQUIRE_FIELDS, KEY_FIELDS, TOP_FIELDS, WRITES_FIELDS } from '../../src/describe/check-description.js';
import { describeRunner } from '../../src/describe/describe-runner.js';
import { BUILT_IN_RUNNERS } from '../../src/runners/registry.js';
import { BEGIN, END, keysSection, withKeysSection } from '../../src/describe/doc-table.js';
import { PLACEHOLDER_FILTERS } from '../../src/shared/written-paths.js';
import { VALUE_TYPES } from '../../src/shared/description.js';
import { govern, ROOT, RUNNERS_DIR } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const BUILT_IN = [...BUILT_IN_RUNNERS].sort();
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The fenced blocks of docs/runners.md marked `<!-- example: PATH -->`, by PATH. */
function examples(): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of read('docs/runners.md').matchAll(/<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)\n```\n/g)) found.set(m[1], `${m[2]}\n`);
  return found;
}

describe('the runners\' documentation', () => {
  it('the built-in runners of the registry are the ones in runners/, README and docs/runners.md #once', () => {
    expect(fs.readdirSync(RUNNERS_DIR).sort()).to.deep.equal(BUILT_IN);
    const readme = [...read('README.md').matchAll(/^\| `(\w+)` \| .* \| \[docs\/\w+\.md\]/gm)].map((m) => m[1]).sort();
    expect(readme).to.deep.equal(BUILT_IN);
    const runnersDoc = [...read('docs/runners.md').matchAll(/`(\w+)`\s+\(\[docs\/\w+\.md\]/g)].map((m) => m[1]).sort();
    expect(runnersDoc).to.deep.equal(BUILT_IN);
  });

  for (const runner of BUILT_IN) {
    it(`docs/${runner}.md documents exactly the keys, values, rules and signals its description gives (make docs writes them) #once`, async () => {
      const answer = await describeRunner(path.join(RUNNERS_DIR, runner), process.env);
      if (answer.kind !== 'described') throw new Error(`${runner} does not describe itself`);
      const doc = read(`docs/${runner}.md`);
      expect(withKeysSection(doc, answer.description), `docs/${runner}.md has no keys section`).to.be.a('string');
      const section = doc.slice(doc.indexOf(BEGIN) + BEGIN.length + 1, doc.indexOf(END));
      expect(section).to.equal(keysSection(answer.description));
      const documented = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
      expect(documented).to.deep.equal(Object.keys(answer.description.keys ?? {}));
    });
  }

  it('docs/runners.md documents every field of a description, every value type and every rule #once', () => {
    const doc = read('docs/runners.md');
    for (const field of [...TOP_FIELDS, ...KEY_FIELDS, ...AUTOREQUIRE_FIELDS, ...WRITES_FIELDS, ...PLACEHOLDER_FILTERS, ...VALUE_TYPES, 'exclusive', 'requires', 'when', 'require', 'only_when', 'relative_paths']) {
      expect(doc.includes(`\`${field}\``) || doc.includes(`{"${field}"`), field).to.equal(true);
    }
  });

  describe('the examples, through govern run', () => {
    function setup() {
      const dir = tempDir('govern-kit-docs-');
      const runners = path.join(dir, 'runners.d');
      const states = path.join(dir, 'states');
      for (const [file, text] of examples()) {
        const target = path.join(dir, file);
        if (file.startsWith('runners.d/')) writeFile(target, text, 0o755);
        else writeFile(target, text.replaceAll('"/etc/', `"${dir}/etc/`));
      }
      fs.mkdirSync(path.join(dir, 'etc'));
      const env = { GOVERN_CACHE_DIR: path.join(dir, 'cache') };
      const run = (...extra: string[]) => govern(['run', states, '--runners-dir', runners, '--json', ...extra], { env });
      return { dir, states, run };
    }

    it('has the sh runner, the JavaScript runner and a state file for each', () => {
      expect([...examples().keys()].sort()).to.deep.equal(['runners.d/lineinfile', 'runners.d/setting', 'states/app.hcl', 'states/motd.hcl']);
      const setting = examples().get('runners.d/setting')!;
      expect(setting.split('\n').length, 'about 20 lines').to.be.below(32);
      expect(setting).to.contain("require('govern/runner')");
    });

    for (const mode of ['persistent', 'oneshot']) {
      it(`apply, then change nothing, then say what noop would do (${mode} runners)`, async () => {
        const t = setup();
        const first = await t.run('--runner-mode', mode);
        expect(first.code, first.stderr).to.equal(0);
        const report = JSON.parse(first.stdout);
        expect(report.resources.map((r: { ref: string; status: string; message: string }) => [r.ref, r.status, r.message])).to.deep.equal([
          [`setting:${t.dir}/etc/app.conf`, 'changed', 'set port'],
          [`lineinfile:${t.dir}/etc/motd`, 'changed', 'added the line'],
        ]);
        expect(fs.readFileSync(path.join(t.dir, 'etc', 'app.conf'), 'utf8')).to.equal('port = 8080\n');
        expect(fs.readFileSync(path.join(t.dir, 'etc', 'motd'), 'utf8')).to.equal('Managed by govern\n');
        const second = JSON.parse((await t.run('--runner-mode', mode)).stdout);
        expect(second.summary).to.include({ changed: 0, unchanged: 2 });
        fs.writeFileSync(path.join(t.dir, 'etc', 'app.conf'), 'port = 80\nhost = x\n');
        const noop = JSON.parse((await t.run('--runner-mode', mode, '--noop')).stdout);
        expect(noop.resources[0]).to.include({ status: 'changed', message: 'Would have set port' });
        expect(fs.readFileSync(path.join(t.dir, 'etc', 'app.conf'), 'utf8')).to.equal('port = 80\nhost = x\n');
      });
    }

    it('their descriptions are checked before anything is applied', async () => {
      const t = setup();
      fs.writeFileSync(path.join(t.states, 'motd.hcl'), 'lineinfile "/tmp/x" {\n  lien = "typo"\n}\n');
      fs.appendFileSync(path.join(t.states, 'app.hcl'), 'setting "relative" {\n  key   = "a b"\n  value = "1"\n}\n');
      const r = await t.run();
      expect(r.code).to.equal(1);
      expect(r.stderr.trimEnd().split('\n')).to.deep.equal([
        `govern: ${t.states}/app.hcl:5: setting:relative: name "relative" is not an absolute path (it must start with "/")`,
        `govern: ${t.states}/app.hcl:6: setting:relative: key "a b" is not a setting name`,
        `govern: ${t.states}/motd.hcl:1: lineinfile:/tmp/x: line is required`,
        `govern: ${t.states}/motd.hcl:2: lineinfile:/tmp/x: unknown key "lien" (did you mean "line"?)`,
      ]);
      expect(fs.existsSync(path.join(t.dir, 'etc', 'app.conf'))).to.equal(false);
    });
  });
});
