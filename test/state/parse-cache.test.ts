// Planning's cache of parsed and checked state files (src/state/parse-cache.ts): used while a file,
// the code and its runner's description are unchanged, planned anew when any of them changes, and
// never keeping a file that read a secret or had a problem.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern, shRunner } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** A runner `greet` whose description accepts the keys named. */
function greetRunner(runners: string, keys: string[]): void {
  const described = keys.map((k) => `"${k}": {"type": "string"}`).join(', ');
  shRunner(runners, 'greet', `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && { echo '{"govern_runner": 1, "keys": {${described}}}'; exit 0; }\necho "message=hello"`);
}

const entries = (cache: string) => (fs.existsSync(cache) ? fs.readdirSync(cache).filter((f) => f.startsWith('plan-')) : []);

function setUp() {
  const dir = tempDir();
  const runners = path.join(dir, 'runners');
  fs.mkdirSync(runners);
  greetRunner(runners, ['who']);
  const tree = path.join(dir, 'tree');
  const file = writeFile(path.join(tree, 'site.hcl'), 'greet "a" {\n  who = "you"\n}\ngreet "b" {\n  who = "{{fact "hostname"}}"\n  after = ["greet:a"]\n}\n');
  const cache = path.join(dir, 'cache');
  const graph = () => govern(['graph', '--runners-dir', runners, '--cache-dir', cache, tree]);
  return { dir, runners, tree, file, cache, graph };
}

describe('the planning cache #once', () => {
  it('keeps each state file planned, and plans the same from it', async () => {
    const t = setUp();
    const first = await t.graph();
    expect(first.code, first.stderr).to.equal(0);
    expect(entries(t.cache)).to.have.length(1);
    for (const f of entries(t.cache)) expect(fs.statSync(path.join(t.cache, f)).mode & 0o777, f).to.equal(0o600);
    const again = await t.graph();
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.equal(first.stdout).and.to.contain('greet:b');
    const none = await govern(['graph', '--runners-dir', t.runners, '--no-cache', t.tree]);
    expect(none.stdout).to.equal(first.stdout);
  });

  it('a resource read from an entry names its file and line, as parsed (an entry writes its file once)', async () => {
    const t = setUp();
    const other = writeFile(path.join(t.tree, 'other.hcl'), 'greet "c" {\n  who = "them"\n}\n');
    fs.appendFileSync(t.file, 'greet "d" {\n  who = "us"\n  after = ["greet:c"]\n}\n');
    const first = await t.graph();
    expect(first.code, first.stderr).to.equal(0);
    // site.hcl is read from its entry; the reference it holds now names nothing.
    fs.writeFileSync(other, '');
    const again = await t.graph();
    expect(again.code).to.equal(1);
    expect(again.stderr).to.contain(`${t.file}:10: greet:d: after names "greet:c", which is not a resource in this state tree`);
  });

  it('plans a changed file anew', async () => {
    const t = setUp();
    await t.graph();
    fs.writeFileSync(t.file, 'greet "c" {\n  who = "me"\n}\n');
    const changed = await t.graph();
    expect(changed.code, changed.stderr).to.equal(0);
    expect(changed.stdout).to.contain('greet:c').and.not.to.contain('greet:a');
    // Its entry replaced, not another added: a file whose text changes every run keeps one.
    expect(entries(t.cache)).to.have.length(1);
  });

  it('checks the keys again when the runner describes itself otherwise', async () => {
    const t = setUp();
    expect((await t.graph()).code).to.equal(0);
    greetRunner(t.runners, ['whom']);
    const refused = await t.graph();
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain('unknown key "who" (did you mean "whom"?)');
    // And a problem is never kept: the next run tells it again.
    expect((await t.graph()).stderr).to.contain('unknown key "who"');
  });

  it('keeps no file with a problem, and none that read a sensitive fact', async () => {
    const t = setUp();
    writeFile(path.join(t.tree, 'site.hcl'), 'greet "a" {\n  who = "you"\n  what = 1\n}\n');
    writeFile(path.join(t.tree, 'secret.hcl'), 'greet "s" {\n  who = "{{fact "secret/db_password"}}"\n}\n');
    writeFile(path.join(t.dir, 'facts', 'secret', 'db_password'), '#!/bin/sh\necho hunter2-secret\n', 0o755);
    const refused = await govern(['graph', '--runners-dir', t.runners, '--cache-dir', t.cache, '--facts-dir', path.join(t.dir, 'facts'), t.tree]);
    expect(refused.stderr).to.contain('unknown key "what"');
    fs.writeFileSync(path.join(t.tree, 'site.hcl'), 'greet "a" {\n  who = "you"\n}\n');
    const planned = await govern(['graph', '--runners-dir', t.runners, '--cache-dir', t.cache, '--facts-dir', path.join(t.dir, 'facts'), t.tree]);
    expect(planned.code, planned.stderr).to.equal(0);
    expect(entries(t.cache)).to.have.length(1);
    for (const f of entries(t.cache)) expect(fs.readFileSync(path.join(t.cache, f), 'utf8')).not.to.contain('hunter2');
  });
});
