// Planning a tree nobody reviewed must end: a fan-out of modules in modules is bounded, and a
// pattern that backtracks without end is matched in linear time or stopped.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const FILE = 'file "/etc/x-{{p}}" {\n  ensure   = "present"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n  contents = "x"\n}\n';

/** Each planning here ends in well under a second; the limit only stops a run that would not end. */
const plan = (tree: string) => govern(['plan', '--no-cache', tree], { timeoutMs: 60_000 });

describe('planning bounds #once', () => {
  it('refuses a tree whose modules fan out past the bound, naming the chain', async () => {
    const dir = tempDir();
    const blocks = (module: string, prefix: string) =>
      Array.from({ length: 10 }, (_, i) => `module "${prefix}-${i}" {\n  source = "${module}"\n  p      = "${prefix}-${i}"\n}\n`).join('');
    writeFile(path.join(dir, 'site.hcl'), blocks('l1', 'i'));
    for (let level = 1; level <= 5; level++) {
      writeFile(path.join(dir, `modules/l${level}/variables.hcl`), 'variable "p" {\n  type = "string"\n}\n');
      writeFile(path.join(dir, `modules/l${level}/main.hcl`), level < 5 ? blocks(`l${level + 1}`, '{{p}}') : FILE);
    }
    const size = fs.readdirSync(path.join(dir, 'modules')).reduce((n, m) => n + fs.statSync(path.join(dir, 'modules', m, 'main.hcl')).size, 0);
    expect(size).to.be.below(4096);
    const r = await plan(dir);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/^govern: modules\/l2\/main\.hcl:[0-9]+: module "i-[0-9]-[0-9]-[0-9]": the tree expands to more than 1000 module instances \([0-9]+ so far\), here: i-[0-9] \(l1\) > i-[0-9]-[0-9] \(l2\) > i-[0-9]-[0-9]-[0-9] \(l3\); /);
    expect(r.stderr.split('\n').filter((l) => l !== '')).to.have.length(1);
  });

  for (const [kind, pattern] of [['a linear-time pattern', '(a|aa)+'], ['a pattern with lookahead', '(?=a)(a|aa)+']]) {
    it(`matches a module parameter against ${kind} without hanging`, async () => {
      const dir = tempDir();
      writeFile(path.join(dir, 'modules/m/variables.hcl'), `variable "p" {\n  type    = "string"\n  pattern = ${JSON.stringify(pattern)}\n}\n`);
      writeFile(path.join(dir, 'modules/m/main.hcl'), FILE);
      const value = 'a'.repeat(48) + 'b';
      writeFile(path.join(dir, 'site.hcl'), `module "bad" {\n  source = "m"\n  p      = "${value}"\n}\nmodule "good" {\n  source = "m"\n  p      = "aaaa"\n}\n`);
      const r = await plan(dir);
      expect(r.code).to.equal(1);
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/^govern: site\.hcl:3: /);
      expect(lines[0]).to.contain(pattern.startsWith('(?=') ? 'took longer than 1 s and was stopped' : `does not match the pattern ${JSON.stringify(pattern)}`);
    });
  }

  it('matches a runner description\'s pattern (a tree\'s runners.d) without hanging', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'runners.d/thing'), '#!/bin/sh\n[ "${GOVERN_DESCRIBE:-}" = 1 ] && { echo \'{"govern_runner": 1, "keys": {"word": {"type": "string", "pattern": "(?=a)(a|aa)+"}}}\'; exit 0; }\necho message=ok\n', 0o755);
    writeFile(path.join(dir, 'a.hcl'), `thing "x" {\n  word = "${'a'.repeat(48)}b"\n}\nthing "y" {\n  word = "aaa"\n}\n`);
    const r = await plan(dir);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/^govern: a\.hcl:2: thing:x: word .*took longer than 1 s and was stopped/);
    expect(r.stderr).not.to.contain('thing:y');
  });
});
