// Syntax errors in state files as a user meets them: one error for one mistake, at the line the
// user wrote (a state file is a template), with what to write instead, and nothing applied.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { callRefs, runnersWith } from '../support/recording-runner.js';
import { tempDir, writeFile } from '../support/tmp.js';

function setup() {
  const dir = tempDir('govern-syntax-');
  const log = path.join(dir, 'calls.log');
  const runners = runnersWith(path.join(dir, 'runners'), log, ['x']);
  const states = path.join(dir, 'states');
  fs.mkdirSync(states);
  const run = (...extra: string[]) => govern(['run', states, '--runners-dir', runners, '--no-cache', ...extra], { timeoutMs: 30_000 });
  return { dir, states, run, calls: () => callRefs(log) };
}

describe('state files: syntax errors', () => {
  it('reports a stray quote once, with the first error of every other file, and applies nothing', async () => {
    const t = setup();
    const a = writeFile(path.join(t.states, 'a.hcl'), 'x "one" {\n  v = "fine"\n  w = "stray""\n  y = "more"\n}\nx "two" {\n  z = "also"\n}\n');
    const b = writeFile(path.join(t.states, 'b.hcl'), 'x "three" {\n  v = "not closed\n}\n');
    writeFile(path.join(t.states, 'c.hcl'), 'x "four" {\n}\n');
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(
      `govern: ${a}:3:14: a stray " after a value: a quoted string opens and closes with one " (write \\" for a quote inside it)\n` +
        `govern: ${b}:2:7: this quoted string is not closed on its line (a stray or missing "?): a quoted string ends on the line it starts on; write \\n for a line break, or use a heredoc (<<EOT)\n`,
    );
    expect(t.calls()).to.deep.equal([]);
  });

  it('says a bare word is one and to quote it, at the line of the source a template moved', async () => {
    const t = setup();
    const file = writeFile(path.join(t.states, 'a.hcl'), '{{#if true}}\n{{/if}}\nx "a" {\n  ensure = directory\n}\n');
    const r = await t.run();
    expect(r.stderr).to.equal(`govern: ${file}:4: directory is a bare word, which HCL would read as an expression: quote it ("directory")\n`);
    expect(t.calls()).to.deep.equal([]);
  });

  it('never shows the value of a secret fact a syntax error quotes', async () => {
    const t = setup();
    writeFile(path.join(t.states, 'facts.d/secret/word'), 'hunter2-secret');
    const file = writeFile(path.join(t.states, 'a.hcl'), 'x "a" {\n  password = {{fact "secret/word"}}\n}\n');
    const r = await t.run();
    expect(r.stderr).to.equal(`govern: ${file}:2: <sensitive> is a bare word, which HCL would read as an expression: quote it ("<sensitive>")\n`);
  });
});
