import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { isBinary, unifiedDiff } from '../../src/shared/text-diff.js';
import { runCommand } from '../../src/shared/process.js';
import { tempDir } from '../support/tmp.js';

/** GNU diff's output for the same texts, its header lines replaced by ours. */
async function gnuDiff(oldText: string, newText: string): Promise<string[]> {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'old'), oldText);
  fs.writeFileSync(path.join(dir, 'new'), newText);
  const r = await runCommand('diff', ['-u', 'old', 'new'], { cwd: dir });
  expect(r.code, r.stderr).to.be.oneOf([0, 1]);
  return r.stdout === '' ? [] : ['--- a', '+++ b', ...r.stdout.trimEnd().split('\n').slice(2)];
}

/** Applies our diff to the old text with GNU patch: the result must be the new text. */
async function applyWithPatch(oldText: string, diff: string[]): Promise<string> {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'old'), oldText);
  fs.writeFileSync(path.join(dir, 'diff'), diff.join('\n') + '\n');
  const r = await runCommand('patch', ['--silent', '--force', '-o', path.join(dir, 'out'), path.join(dir, 'old'), path.join(dir, 'diff')]);
  expect(r.code, `patch failed: ${r.stdout}${r.stderr}\n${diff.join('\n')}`).to.equal(0);
  return fs.readFileSync(path.join(dir, 'out'), 'utf8');
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('unified diff (the file runners\' and govern diff\'s) #once', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', 'a', 'b')).to.deep.equal([]);
    expect(unifiedDiff('', '', 'a', 'b')).to.deep.equal([]);
  });

  const cases: [string, string, string][] = [
    ['one changed line among many', 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n', 'l1\nl2\nl3\nl4\nL5\nl6\nl7\nl8\nl9\nl10\n'],
    ['a line added at the end', 'a\nb\n', 'a\nb\nc\n'],
    ['a line removed at the start', 'a\nb\nc\n', 'b\nc\n'],
    ['from empty', '', 'x\ny\n'],
    ['to empty', 'x\ny\n', ''],
    ['a missing final newline added', 'a\nb', 'a\nb\n'],
    ['a final newline removed', 'a\nb\n', 'a\nb'],
    ['two changes far apart make two hunks', Array.from({ length: 30 }, (_, i) => `line ${i}\n`).join(''), Array.from({ length: 30 }, (_, i) => (i === 2 || i === 25 ? `changed ${i}\n` : `line ${i}\n`)).join('')],
  ];
  for (const [title, oldText, newText] of cases) {
    it(`prints what diff -u prints: ${title}`, async () => {
      expect(unifiedDiff(oldText, newText, 'a', 'b')).to.deep.equal(await gnuDiff(oldText, newText));
    });
  }

  it('produces diffs that GNU patch applies exactly (200 random edits)', async function () {
    this.timeout(60_000);
    const next = random(42);
    const words = ['alpha', 'beta', 'gamma', 'delta', ''];
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: Math.floor(next() * 40) }, () => words[Math.floor(next() * words.length)]);
      const edited = lines.flatMap((line) => {
        const r = next();
        if (r < 0.1) return [];
        if (r < 0.2) return [line, words[Math.floor(next() * words.length)]];
        if (r < 0.3) return ['changed ' + line];
        return [line];
      });
      const oldText = lines.join('\n') + (next() < 0.8 ? '\n' : '');
      const newText = edited.join('\n') + (next() < 0.8 ? '\n' : '');
      const diff = unifiedDiff(oldText, newText, 'old', 'new');
      expect(diff).to.not.equal(undefined);
      if (diff!.length === 0) {
        expect(oldText).to.equal(newText);
        continue;
      }
      expect(await applyWithPatch(oldText, diff!), `round ${round}`).to.equal(newText);
    }
  });

  it('gives up (undefined) when the texts differ too much for the work limit or in more than 2,000 lines', () => {
    const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}\n`).join('');
    expect(unifiedDiff(lines('a', 900), lines('b', 900), 'a', 'b', { maxWork: 100_000 })).to.equal(undefined);
    expect(unifiedDiff(lines('a', 900), lines('b', 900), 'a', 'b')).to.have.length(2 + 1 + 1800);
    expect(unifiedDiff(lines('a', 3000), lines('b', 3000), 'a', 'b')).to.equal(undefined);
  });

  it('calls content with a NUL byte or invalid UTF-8 binary', () => {
    expect(isBinary(Buffer.from('plain text\n'))).to.equal(false);
    expect(isBinary(Buffer.from('héllo ✓\n'))).to.equal(false);
    expect(isBinary(Buffer.from([0x61, 0x00, 0x62]))).to.equal(true);
    expect(isBinary(Buffer.from([0xff, 0xfe, 0x41]))).to.equal(true);
  });
});
