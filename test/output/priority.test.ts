// Priorities for the journal: with stdout and stderr connected to the stream JOURNAL_STREAM names,
// each line of `govern run` carries sd-daemon's <N> prefix. No journald runs on the test machines,
// so a file stands in for the journal's stream (its device and inode in JOURNAL_STREAM), and the
// test reads the prefixes as journald would, keeping what `journalctl -p warning` would show.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isJournalStream, withPriority } from '../../src/output/priority.js';
import { GOVERN, TEST_VAR_DIR } from '../support/cli.js';
import { tree } from '../support/state-tree.js';
import { tempDir } from '../support/tmp.js';

/** Runs govern with stdout and stderr on one file; JOURNAL_STREAM names that file unless told otherwise. */
async function runToFile(args: string[], journal: 'this file' | 'another stream'): Promise<string> {
  const file = path.join(tempDir(), 'stream');
  const fd = fs.openSync(file, 'w');
  const st = fs.fstatSync(fd, { bigint: true });
  const env = { ...process.env, GOVERN_VAR_DIR: TEST_VAR_DIR, JOURNAL_STREAM: journal === 'this file' ? `${st.dev}:${st.ino}` : `${st.dev}:${st.ino + 1n}` };
  const child = spawn(GOVERN, args, { env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  await new Promise((resolve) => child.on('close', resolve));
  return fs.readFileSync(file, 'utf8');
}

/** journald's reading of a line: the priority of its prefix (6, info, without one) and the text. */
function journalEntries(text: string): { priority: number; message: string }[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const m = /^<([0-7])>(.*)$/.exec(l);
      return m ? { priority: Number(m[1]), message: m[2] } : { priority: 6, message: l };
    });
}

describe('journal priorities (a file stands in for the journal stream: no journald here)', () => {
  it('journalctl -p warning would show only the failures of a run', async () => {
    const t = tree({ 'a.hcl': 'pkg "ok" {\n  changed = true\n}\npkg "bad" {\n  fail = true\n}\npkg "after" {\n  after = ["pkg:bad"]\n}\npkg "same" {}\n' });
    const output = await runToFile(['run', t.states, '--runners-dir', t.runners, '--facts-dir', t.facts, '-v'], 'this file');
    const entries = journalEntries(output);
    expect(entries.every((e) => output.includes(`<${e.priority}>${e.message}`)), 'every line has a prefix').to.equal(true);
    const warnings = entries.filter((e) => e.priority <= 4).map((e) => e.message);
    expect(warnings[0]).to.match(/^failed +pkg:bad /);
    expect(warnings.slice(1, -1).every((m) => m.startsWith(' '.repeat(10) + '| ')), 'then its log lines').to.equal(true);
    expect(warnings.at(-1)).to.match(/^4 resources, 1 changed, 1 unchanged, 1 failed, 1 skipped/);
    const at = (prefix: string) => entries.find((e) => e.message.startsWith(prefix))?.priority;
    expect(at('failed')).to.equal(3);
    expect(at('changed')).to.equal(5);
    expect(at('skipped')).to.equal(5);
    expect(at('unchanged')).to.equal(6);
  });

  it('errors on stderr are errors; a good run has nothing at warning or above', async () => {
    const bad = tree({ 'a.hcl': 'pkg "a" {\n  before = ["pkg:nope"]\n}\n' });
    const failed = journalEntries(await runToFile(['run', bad.states, '--runners-dir', bad.runners, '--facts-dir', bad.facts], 'this file'));
    expect(failed.find((e) => e.message.includes('pkg:nope'))?.priority).to.equal(3);
    const good = tree({ 'a.hcl': 'pkg "a" {\n  changed = true\n}\n' });
    const entries = journalEntries(await runToFile(['run', good.states, '--runners-dir', good.runners, '--facts-dir', good.facts], 'this file'));
    expect(entries.map((e) => e.priority)).to.deep.equal([5, 5]);
  });

  it('writes no prefixes when the output is not the journal stream', async () => {
    const t = tree({ 'a.hcl': 'pkg "bad" {\n  fail = true\n}\n' });
    const output = await runToFile(['run', t.states, '--runners-dir', t.runners, '--facts-dir', t.facts], 'another stream');
    expect(output).to.match(/^failed +pkg:bad /);
    expect(output).to.not.match(/<\d>/);
  });

  it('prefixes every line of a text, and knows a stream by device and inode', () => {
    expect(withPriority('one\ntwo\n', 'err')).to.equal('<3>one\n<3>two\n');
    const fd = fs.openSync(path.join(tempDir(), 'f'), 'w');
    try {
      const st = fs.fstatSync(fd, { bigint: true });
      expect(isJournalStream(fd, { JOURNAL_STREAM: `${st.dev}:${st.ino}` })).to.equal(true);
      expect(isJournalStream(fd, { JOURNAL_STREAM: `${st.dev}:${st.ino + 1n}` })).to.equal(false);
      expect(isJournalStream(fd, {})).to.equal(false);
    } finally {
      fs.closeSync(fd);
    }
  });
});
