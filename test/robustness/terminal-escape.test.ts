// What a runner prints reaches the terminal escaped: a message, a log line or a diff line holding
// escape sequences cannot retitle the window or clear the screen; --json keeps the exact text.
import { expect } from 'chai';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { terminalLine, terminalText } from '../../src/shared/terminal-text.js';
import { govern, RUNNERS_DIR, shRunner } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('terminal control characters in what runners print', () => {
  it('terminalLine escapes C0 (tab aside), DEL and C1; terminalText keeps newlines #once', () => {
    expect(terminalLine('a\tb\x1b]0;title\x07\r\n\x7f\x9b')).to.equal('a\tb\\x1b]0;title\\x07\\x0d\\x0a\\x7f\\x9b');
    expect(terminalText('one\ntwo\x1b[2J')).to.equal('one\ntwo\\x1b[2J');
    expect(terminalLine('café ✓')).to.equal('café ✓');
  });

  it('bidirectional overrides, isolates, marks and the Unicode line separators are escaped #once', () => {
    expect(terminalLine('ok\u202egnp.exe')).to.equal('ok\\u202egnp.exe');
    expect(terminalLine('a\u2066b\u2069c\u200fd\u061ce')).to.equal('a\\u2066b\\u2069c\\u200fd\\u061ce');
    expect(terminalText('one\u2028two\u2029')).to.equal('one\\u2028two\\u2029');
    expect(terminalLine('שלום עולם')).to.equal('שלום עולם');
  });

  it("a runner's message, log and diff are shown escaped in text, exact in --json", async () => {
      const dir = tempDir();
      const runners = path.join(dir, 'runners');
      shRunner(
        runners,
        'shouty',
        [
          `printf 'log \\033[2J cleared\\n'`,
          `printf 'diff=--- a\\ndiff=+++ b\\ndiff=@@ -1 +1 @@\\ndiff=+\\033[31mred\\r\\n'`,
          `echo changed=true`,
          `printf 'message=a\\tb\\033]0;title\\007\\n'`,
          `printf 'oops \\033[1A\\n' >&2`,
        ].join('\n'),
      );
      const states = path.join(dir, 'states');
      writeFile(path.join(states, 'main.hcl'), 'shouty "x" {}\n');
      const args = ['run', states, '--runners-dir', runners];
      const text = await govern([...args, '-v']);
      expect(text.code, text.stderr).to.equal(0);
      expect(text.stdout).to.not.match(/[\x00-\x08\x0b-\x1f\x7f]/);
      expect(text.stdout).to.contain('a\tb\\x1b]0;title\\x07');
      expect(text.stdout).to.contain('log \\x1b[2J cleared');
      expect(text.stdout).to.contain('+\\x1b[31mred\\x0d');
      expect(text.stdout).to.contain('oops \\x1b[1A');
      const json = await govern([...args, '--json']);
      const r = (JSON.parse(json.stdout) as RunReport).resources[0];
      expect(r.message).to.equal('a\tb\x1b]0;title\x07');
      expect(r.log).to.include('log \x1b[2J cleared');
      expect(r.diff).to.contain('+\x1b[31mred\r');
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`an exec command's output is shown escaped (${mode} runners)`, async () => {
      const dir = tempDir();
      const states = path.join(dir, 'states');
      writeFile(path.join(states, 'main.hcl'), `exec "title" {\n  provider  = "shell"\n  command   = "printf '\\\\033]0;pwned\\\\007\\\\n'"\n  logoutput = true\n}\n`);
      const args = ['run', states, '--runners-dir', RUNNERS_DIR, '--runner-mode', mode];
      const text = await govern([...args, '-v']);
      expect(text.code, text.stderr).to.equal(0);
      expect(text.stdout).to.not.contain('\x1b');
      expect(text.stdout).to.contain('stdout: \\x1b]0;pwned\\x07');
      const json = await govern([...args, '--json']);
      expect((JSON.parse(json.stdout) as RunReport).resources[0].log).to.include('stdout: \x1b]0;pwned\x07');
    });
  }

  it('an error message quoting a runner is escaped on stderr', async () => {
    const dir = tempDir();
    const runners = path.join(dir, 'runners');
    shRunner(runners, 'broken', `printf 'message=bad \\033]0;owned\\007\\n'; exit 1`);
    const states = path.join(dir, 'states');
    writeFile(path.join(states, 'main.hcl'), 'broken "x" {}\n');
    const r = await govern(['run', states, '--runners-dir', runners]);
    expect(r.code).to.equal(1);
    expect(r.stdout + r.stderr).to.not.contain('\x1b');
    expect(r.stdout).to.contain('bad \\x1b]0;owned\\x07');
  });
});
