// The real runners/line against real files in a temporary directory, in both runner modes: every row
// of the decision table (noop first, changing nothing; then the real run; then a second run that
// changes nothing), and what a rewrite keeps: owner, group, mode, other lines' bytes, a trailing newline.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../support/tmp.js';
import { sha256, snapshot } from '../file/support.js';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { rowTests, symlinkTest, type Row } from '../edit-rows.js';

const SWAP = ['line=vm.swappiness = 10', 'match=^\\s*vm\\.swappiness\\s*='];

/** The decision table of docs/line.md; F is the file's path. */
function rows(F: string): Row[] {
  return [
    { row: 'present, the matching line is the line', before: 'a\nvm.swappiness = 10\n', args: SWAP, message: 'line present' },
    { row: 'present, one matching line differs', before: 'a\n vm.swappiness=60\nb\n', args: SWAP, message: 'replaced line 2', after: 'a\nvm.swappiness = 10\nb\n' },
    {
      row: 'present, several matching lines, multiple = true',
      before: 'vm.swappiness = 1\nx\nvm.swappiness = 10\nvm.swappiness=2\n',
      args: [...SWAP, 'multiple=true'],
      message: 'replaced lines 1 and 4',
      after: 'vm.swappiness = 10\nx\nvm.swappiness = 10\nvm.swappiness = 10\n',
    },
    {
      row: 'present, several matching lines, multiple = false',
      before: 'vm.swappiness = 1\nx\nvm.swappiness = 2\n',
      args: SWAP,
      error: true,
      message: `2 lines of ${F} match "^\\\\s*vm\\\\.swappiness\\\\s*=" (lines 1 and 3); set multiple = true to replace them all`,
    },
    { row: 'present, several matching lines all equal to the line', before: 'vm.swappiness = 10\nvm.swappiness = 10\n', args: SWAP, message: 'line present' },
    { row: 'present, no match given, the line is there', before: 'a\nb\n', args: ['line=b'], message: 'line present' },
    { row: 'present, nothing matches, the line is there (it does not match `match`)', before: 'a\nPort 22\n', args: ['line=Port 22', 'match=^#Port'], message: 'line present' },
    { row: 'present, inserted after the last line `insert_after` matches', before: '# tuning\na\n# tuning\nb\n', args: [...SWAP, 'insert_after=^# tuning'], message: 'added the line after line 3', after: '# tuning\na\n# tuning\nvm.swappiness = 10\nb\n' },
    { row: 'present, appended at the end', before: 'a\n', args: SWAP, message: 'added the line at the end', after: 'a\nvm.swappiness = 10\n' },
    { row: 'present, `insert_after` matches nothing: at the end', before: 'a\n', args: [...SWAP, 'insert_after=^# nowhere'], message: 'added the line at the end (no line matches insert_after "^# nowhere")', after: 'a\nvm.swappiness = 10\n' },
    { row: 'present, an empty file', before: '', args: ['line=only'], message: 'added the line at the end', after: 'only\n' },
    { row: 'present, missing file, create = true', args: ['line=hello', 'create=true'], message: `created ${F} with the line`, after: 'hello\n' },
    {
      row: 'present, missing file, create = false',
      args: ['line=hello'],
      error: true,
      message: `${F} does not exist (set create = true to create it with the line)`,
      noopMessage: `Would have added the line to ${F}, which does not exist yet`,
    },
    { row: 'absent, lines matching `match`', before: 'legacy_a = 1\nkeep\nlegacy_b = 2\n', args: ['line=unused', 'match=^legacy_', 'ensure=absent'], message: 'removed lines 1 and 3', after: 'keep\n' },
    { row: 'absent, lines equal to the line', before: 'x\n10.0.0.9 mirror\ny\n10.0.0.9 mirror\n10.0.0.9 mirrors\n', args: ['line=10.0.0.9 mirror', 'ensure=absent'], message: 'removed lines 2 and 4', after: 'x\ny\n10.0.0.9 mirrors\n' },
    { row: 'absent, every line goes: an empty file stays', before: 'x\n', args: ['line=x', 'ensure=absent'], message: 'removed line 1', after: '' },
    { row: 'absent, no such line', before: 'x\n', args: ['line=y', 'ensure=absent'], message: 'line absent' },
    { row: 'absent, missing file', args: ['line=y', 'ensure=absent'], message: `${F} does not exist: the line is absent` },
    // CRLF line breaks: lines are matched without the "\r", and every line keeps its own line break.
    { row: 'CRLF, present, the line is there', before: 'a\r\nvm.swappiness = 10\r\n', args: SWAP, message: 'line present' },
    { row: 'CRLF, present, no match given, the line is there', before: 'a\r\nb\r\nc', args: ['line=b'], message: 'line present' },
    { row: 'CRLF, present, a matching line replaced', before: 'a\r\n vm.swappiness=60\r\nb\r\n', args: SWAP, message: 'replaced line 2', after: 'a\r\nvm.swappiness = 10\r\nb\r\n' },
    { row: 'CRLF, present, appended with CRLF, a last line without one completed', before: 'a\r\nb', args: ['line=c'], message: 'added the line at the end', after: 'a\r\nb\r\nc\r\n' },
    { row: 'CRLF, present, inserted after a line, each line keeping its break', before: '# t\r\nx\ny\r\n', args: ['line=z', 'insert_after=^# t$'], message: 'added the line after line 1', after: '# t\r\nz\r\nx\ny\r\n' },
    { row: 'CRLF, absent, lines equal to the line', before: 'a\r\nb\r\nc\r\nb\r\n', args: ['line=b', 'ensure=absent'], message: 'removed lines 2 and 4', after: 'a\r\nc\r\n' },
    { row: 'CRLF, absent, lines matching `match` ($ before the CR)', before: 'legacy = 1\r\nkeep\r\n', args: ['line=unused', 'match=^legacy = 1$', 'ensure=absent'], message: 'removed line 1', after: 'keep\r\n' },
  ];
}

describe('line runner: the decision table, real files #once', function () {
  this.timeout(120_000);

  for (const mode of MODES) {
    describe(`${mode} runner`, () => {
      rowTests('line', 'x', mode, rows, { newFileDiff: false });
      symlinkTest('line', mode, ['line=b']);

      it('a parent directory reached through a link an unprivileged user owns is refused, as the file runner refuses it', async () => {
        const dir = tempDir('govern-line-');
        const user = path.join(dir, 'user');
        const owned = path.join(dir, 'root');
        fs.mkdirSync(user);
        fs.mkdirSync(owned);
        fs.writeFileSync(path.join(owned, 'f.conf'), 'a\n');
        fs.chownSync(user, 4321, 4321);
        fs.symlinkSync(owned, path.join(user, 'link'));
        fs.lchownSync(path.join(user, 'link'), 4321, 4321);
        const before = snapshot(dir);
        const r = await callRunner('line', mode, 'x', [`path=${path.join(user, 'link', 'f.conf')}`, 'line=b']);
        expect(r.ok).to.equal(false);
        expect(r.message).to.contain(`refusing to go through ${path.join(user, 'link')}`);
        expect(snapshot(dir)).to.deep.equal(before);
      });

      it('a directory at the path, or a missing directory with create = true, is refused', async () => {
        const dir = tempDir('govern-line-');
        const r = await callRunner('line', mode, 'x', [`path=${dir}`, 'line=b']);
        expect(r).to.include({ ok: false, message: `${dir} is a directory, not a regular file; a line can only be managed in a regular file` });
        const nested = path.join(dir, 'no', 'f');
        const missing = await callRunner('line', mode, 'x', [`path=${nested}`, 'line=b', 'create=true']);
        expect(missing).to.include({ ok: false, message: `the directory of ${nested} does not exist` });
        expect(fs.readdirSync(dir)).to.deep.equal([]);
      });

      it('a rewrite keeps owner, group and mode (setgid included), every other byte, and ends the file with a newline', async () => {
        const dir = tempDir('govern-line-');
        const F = path.join(dir, 'f');
        // Latin-1 bytes (not UTF-8) and a last line without a newline.
        const before = Buffer.concat([Buffer.from('caf\xe9 = 1\r\n', 'latin1'), Buffer.from('port = 80\n\n  spaced  \nlast')]);
        fs.writeFileSync(F, before);
        fs.chownSync(F, 4321, 4322);
        fs.chmodSync(F, 0o2640);
        const r = await callRunner('line', mode, 'x', [`path=${F}`, 'line=port = 8080', 'match=^port\\s*=']);
        expect(r, r.log).to.include({ ok: true, changed: true, message: 'replaced line 2' });
        expect(r.diff, 'no diff of a file that is not UTF-8').to.equal(undefined);
        // Not readable by all: no diff, whatever its bytes (privacy is checked first, as for every runner).
        expect(r.log).to.contain(`content changed (diff not shown: ${F} is not readable by all (mode 2640)`);
        const after = fs.readFileSync(F);
        expect(after.equals(Buffer.concat([Buffer.from('caf\xe9 = 1\r\n', 'latin1'), Buffer.from('port = 8080\n\n  spaced  \nlast\n')]))).to.equal(true);
        const st = fs.statSync(F);
        expect([st.uid, st.gid, st.mode & 0o7777]).to.deep.equal([4321, 4322, 0o2640]);
      });

      it('a file left alone keeps its missing trailing newline; a created file is 0644, owned by the runner', async () => {
        const dir = tempDir('govern-line-');
        const F = path.join(dir, 'f');
        fs.writeFileSync(F, 'a\nb');
        expect(await callRunner('line', mode, 'x', [`path=${F}`, 'line=b'])).to.include({ ok: true, changed: false });
        expect(sha256(fs.readFileSync(F))).to.equal(sha256('a\nb'));
        const G = path.join(dir, 'g');
        expect(await callRunner('line', mode, 'x', [`path=${G}`, 'line=g', 'create=true'])).to.include({ ok: true, changed: true });
        const st = fs.statSync(G);
        expect([st.uid, st.gid, st.mode & 0o7777]).to.deep.equal([process.getuid!(), process.getgid!(), 0o644]);
      });

      it('with `match`, a line that does not match it is logged, and the run is still idempotent', async () => {
        const dir = tempDir('govern-line-');
        const F = path.join(dir, 'f');
        fs.writeFileSync(F, '#Port 22\n');
        const first = await callRunner('line', mode, 'x', [`path=${F}`, 'line=Port 2222', 'match=^#Port']);
        expect(first).to.include({ ok: true, changed: true, message: 'replaced line 1' });
        expect(first.log).to.contain('the line does not match "^#Port"');
        expect(await callRunner('line', mode, 'x', [`path=${F}`, 'line=Port 2222', 'match=^#Port'])).to.include({ ok: true, changed: false, message: 'line present' });
        expect(fs.readFileSync(F, 'utf8')).to.equal('Port 2222\n');
      });

      it('refresh does nothing; bad arguments are refused with every problem, naming the key', async () => {
        const dir = tempDir('govern-line-');
        const F = path.join(dir, 'f');
        fs.writeFileSync(F, 'a\n');
        expect(await callRunner('line', mode, 'x', [`path=${F}`, 'line=b'], { GOVERN_SIGNAL: 'refresh' })).to.include({ ok: true, changed: false, message: 'refresh: nothing to do for a line' });
        const bad = await callRunner('line', mode, 'x', [`path=${F}`, 'line=b\nc', 'match=(', 'insert_after=[', 'ensure=absent']);
        expect(bad.ok).to.equal(false);
        expect(bad.message).to.equal(
          'line "b\\nc" is not one line of text (no line break); match "(" is not a regular expression (Unterminated group); insert_after "[" is not a regular expression (Unterminated character class); insert_after is only for ensure = "present", not ensure = "absent"',
        );
        expect(fs.readFileSync(F, 'utf8')).to.equal('a\n');
      });
    });
  }
});
