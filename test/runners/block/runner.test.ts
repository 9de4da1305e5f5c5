// The real runners/block against real files in a temporary directory, in both runner modes: every
// row of the decision table of docs/block.md (noop, real run, second run), a pattern that would
// backtrack without end stopped, and what every edit runner refuses or keeps (edit-rows.ts).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';
import { commonTests, rowTests, type Row } from '../edit-rows.js';

const B = (body: string, prefix = '#') => `${prefix} BEGIN govern sshd hardening\n${body}${prefix} END govern sshd hardening\n`;
const C = ['content=PermitRootLogin no\nX11Forwarding no'];
const BODY = 'PermitRootLogin no\nX11Forwarding no\n';

function rows(F: string): Row[] {
  return [
    { row: 'present, the block there as it should be', before: `Port 22\n${B(BODY)}x\n`, args: C, message: 'block present' },
    { row: 'present, the block there with other lines: replaced where it is', before: `Port 22\n${B('PermitRootLogin yes\n')}x\n`, args: [...C, 'insert_before=^Port'], message: 'replaced the block (lines 2-4)', after: `Port 22\n${B(BODY)}x\n` },
    { row: 'present, no block: appended (insert_after not given)', before: 'Port 22\n', args: C, message: 'added the block at the end', after: `Port 22\n${B(BODY)}` },
    { row: 'present, insert_after = "EOF"', before: 'a\nb\n', args: [...C, 'insert_after=EOF'], message: 'added the block at the end', after: `a\nb\n${B(BODY)}` },
    { row: 'present, insert_before = "BOF"', before: 'a\nb\n', args: [...C, 'insert_before=BOF'], message: 'added the block at the beginning', after: `${B(BODY)}a\nb\n` },
    { row: 'present, after the first line insert_after finds', before: '#Port 1\nPort 22\nPort 23\n', args: [...C, 'insert_after=^Port'], message: 'added the block after line 2', after: `#Port 1\nPort 22\n${B(BODY)}Port 23\n` },
    { row: 'present, before the first line insert_before finds', before: 'a\nMatch User x\n  X 1\nMatch User y\n', args: [...C, 'insert_before=^Match '], message: 'added the block before line 2', after: `a\n${B(BODY)}Match User x\n  X 1\nMatch User y\n` },
    { row: 'present, no line found: at the end', before: 'a\n', args: [...C, 'insert_before=^Match '], message: 'added the block at the end (no line matches insert_before "^Match ")', after: `a\n${B(BODY)}` },
    { row: 'present, a last line without a newline gets one before the block', before: 'a', args: C, message: 'added the block at the end', after: `a\n${B(BODY)}` },
    { row: 'present, a last line without a newline after the block stays so', before: `${B('old\n')}tail`, args: C, message: 'replaced the block (lines 1-3)', after: `${B(BODY)}tail` },
    { row: 'present, a lone BEGIN marker is left and a block added', before: `${'# BEGIN govern sshd hardening'}\na\n`, args: C, message: 'added the block at the end', after: `# BEGIN govern sshd hardening\na\n${B(BODY)}` },
    { row: 'present, marker_prefix', before: 'a\n', args: [...C, 'marker_prefix=;'], message: 'added the block at the end', after: `a\n${B(BODY, ';')}` },
    { row: 'present, content with a last line break: no line added', before: 'a\n', args: ['content=x\n'], message: 'added the block at the end', after: `a\n${B('x\n')}` },
    { row: 'present, empty content removes the block (as Ansible)', before: `a\n${B(BODY)}b\n`, args: ['content='], message: 'removed the block (lines 2-5)', after: 'a\nb\n' },
    { row: 'present, missing file, create = true', args: [...C, 'create=true'], message: `created ${F} with the block`, after: B(BODY) },
    { row: 'present, missing file, create = false (the default)', args: C, error: true, message: `${F} does not exist (set create = true to create it with the block)`, noopMessage: `Would have added the block to ${F}, which does not exist yet` },
    { row: 'absent, the block and its markers removed', before: `a\n${B(BODY)}b\n`, args: ['ensure=absent'], message: 'removed the block (lines 2-5)', after: 'a\nb\n' },
    { row: 'absent, no block', before: 'a\n', args: ['ensure=absent'], message: 'block absent' },
    { row: 'absent, missing file', args: ['ensure=absent'], message: `${F} does not exist: the block is absent` },
    { row: 'CRLF, the block written with CRLF and found again', before: 'a\r\nb\r\n', args: C, message: 'added the block at the end', after: `a\r\nb\r\n${B(BODY).replace(/\n/g, '\r\n')}` },
    { row: 'CRLF, a block with CRLF is the block', before: `a\r\n${B(BODY).replace(/\n/g, '\r\n')}`, args: C, message: 'block present' },
  ];
}

describe('block runner: the decision table, real files #once', function () {
  this.timeout(120_000);
  for (const mode of MODES) {
    describe(`${mode} runner`, () => {
      rowTests('block', 'sshd hardening', mode, rows);
      commonTests('block', mode, ['content=new = 1']);

      it('a pattern that backtracks without end is stopped with the reason, nothing changed', async () => {
        const dir = tempDir('govern-block-');
        const F = path.join(dir, 'f.conf');
        fs.writeFileSync(F, `${'a'.repeat(40)}b\n`);
        const r = await callRunner('block', mode, 'x', [`path=${F}`, 'content=x', 'insert_after=^(a|aa)+(?=c)']);
        expect(r.ok, r.log).to.equal(false);
        expect(r.message).to.include('took longer than 1 s and was stopped');
        expect(fs.readFileSync(F, 'utf8')).to.equal(`${'a'.repeat(40)}b\n`);
      });
    });
  }
});
