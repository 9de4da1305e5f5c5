import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern, ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const EXAMPLES = path.join(ROOT, 'examples');
/** Every fact the examples read, for planning them without this host. */
const FACTS = { hostname: 'web1', role: 'web', env: 'staging', 'os/family': 'debian', 'os/distribution': 'debian', 'os/release': '12', 'os/arch': 'amd64', 'cpu/count': '2' };

function hclFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.hcl')).sort().map((f) => path.join(dir, f));
}

/** The same file laid out badly: indentation doubled on attribute lines, no alignment; the same lines. */
function unformat(text: string): string {
  return text.replace(/^( *)([a-z_]+) *= */gm, (_m, indent: string, key: string) => `${indent}${indent}${key}=  `);
}

async function plans(dir: string, snapshot: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const r = await govern(['plan', '--facts', snapshot, '--json', path.join(dir, name)]);
    expect(r.code, r.stderr).to.equal(0);
    out.push(r.stdout);
  }
  return out;
}

describe('govern fmt #once', () => {
  it('finds every example already in the canonical layout (--check exits 0, prints nothing)', async () => {
    const r = await govern(['fmt', '--check', EXAMPLES]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.equal('');
    expect(r.code).to.equal(0);
  });

  it('lays out every example file laid out badly back to its text, and the plans before and after are the same bytes', async () => {
    const dir = tempDir();
    fs.cpSync(EXAMPLES, path.join(dir, 'examples'), { recursive: true });
    const copy = path.join(dir, 'examples');
    const snapshot = writeFile(path.join(dir, 'web1.json'), JSON.stringify(FACTS));
    const files = hclFiles(copy);
    expect(files.length).to.be.greaterThan(20);
    for (const f of files) fs.writeFileSync(f, unformat(fs.readFileSync(f, 'utf8')));
    const before = await plans(copy, snapshot);

    const check = await govern(['fmt', '--check', copy]);
    expect(check.code).to.equal(1);
    const listed = check.stdout.trim().split('\n');
    expect(listed.length).to.be.greaterThan(10);
    expect(listed.every((f) => files.includes(f))).to.equal(true);
    expect(fs.readFileSync(listed[0], 'utf8')).to.equal(unformat(fs.readFileSync(listed[0].replace(copy, EXAMPLES), 'utf8')), '--check writes nothing');

    const written = await govern(['fmt', copy]);
    expect(written.code, written.stderr).to.equal(0);
    expect(written.stdout).to.equal(check.stdout);
    for (const f of files) expect(fs.readFileSync(f, 'utf8'), f).to.equal(fs.readFileSync(f.replace(copy, EXAMPLES), 'utf8'));
    expect(await plans(copy, snapshot)).to.deep.equal(before);
    // Idempotent: a second pass changes nothing.
    expect((await govern(['fmt', '--check', copy])).code).to.equal(0);
  });

  it('--diff shows each change as a unified diff and writes it; with --check it writes nothing', async () => {
    const dir = tempDir();
    const file = writeFile(path.join(dir, 'a.hcl'), 'pkg "a" {\n    ensure="present"\n}\n');
    const shown = await govern(['fmt', '--check', '--diff', dir]);
    expect(shown.code).to.equal(1);
    expect(shown.stdout).to.equal(`--- ${file}\n+++ ${file} (formatted)\n@@ -1,3 +1,3 @@\n pkg "a" {\n-    ensure="present"\n+  ensure = "present"\n }\n`);
    expect(fs.readFileSync(file, 'utf8')).to.equal('pkg "a" {\n    ensure="present"\n}\n');
    const written = await govern(['fmt', '--diff', file]);
    expect(written.code).to.equal(0);
    expect(written.stdout).to.equal(shown.stdout);
    expect(fs.readFileSync(file, 'utf8')).to.equal('pkg "a" {\n  ensure = "present"\n}\n');
  });

  it('leaves a file it cannot lay out as it is, names it with its line, formats the others and exits 1', async () => {
    const dir = tempDir();
    const bad = '{{#if (eq (fact "os/family") "debian")}}\nfile "/a" {\n{{else}}\nfile "/b" {\n{{/if}}\n    mode="0644"\n}\n';
    const badFile = writeFile(path.join(dir, 'a.hcl'), bad);
    const good = writeFile(path.join(dir, 'b.hcl'), 'pkg "a" {\nensure="present"\n}\n');
    fs.symlinkSync(good, path.join(dir, 'link.hcl'));
    const r = await govern(['fmt', dir]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal(`${good}\n`);
    expect(r.stderr).to.equal(`govern: ${badFile}:1: left as it is: the template block {{#if (eq (fact "os/family") "debian")}} (line 1) opens or closes a bracket that {{else}} (line 3) does not: the file's blocks depend on what renders, and fmt leaves it as it is\n`);
    expect(fs.readFileSync(badFile, 'utf8')).to.equal(bad);
    expect(fs.readFileSync(good, 'utf8')).to.equal('pkg "a" {\n  ensure = "present"\n}\n');
    expect(fs.lstatSync(path.join(dir, 'link.hcl')).isSymbolicLink()).to.equal(true);
  });

  it('keeps a file\'s mode, and refuses a path that does not exist', async () => {
    const dir = tempDir();
    const file = writeFile(path.join(dir, 'a.hcl'), 'a=1\n', 0o600);
    expect((await govern(['fmt', file])).code).to.equal(0);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    expect(fs.readFileSync(file, 'utf8')).to.equal('a = 1\n');
    const r = await govern(['fmt', path.join(dir, 'nope')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`govern: ${path.join(dir, 'nope')}: no such file or directory\n`);
  });
});
