// govern's block runner against Ansible's blockinfile on copies of the same files (ansible-diff.ts):
// the same bytes, or a difference docs/block.md gives the reason for. Ansible is given govern's
// markers (`marker`), so that the two write the same block.
import { ansibleTests, type AnsibleCase } from '../ansible-diff.js';

const MARKER = { marker: '# {mark} govern sshd hardening' };
const BLOCK = 'PermitRootLogin no\nX11Forwarding no';
const A = (extra: Record<string, unknown> = {}) => ({ ...MARKER, block: BLOCK, ...extra });
const G = [`content=${BLOCK}`];
const OURS = '# BEGIN govern sshd hardening\nPermitRootLogin no\nX11Forwarding no\n# END govern sshd hardening\n';

const cases: AnsibleCase[] = [
  { case: 'at the end by default', before: 'Port 22\n', ansible: A(), govern: G },
  { case: 'after the line insert_after finds', before: 'Port 22\nUsePAM yes\n', ansible: A({ insertafter: '^Port' }), govern: [...G, 'insert_after=^Port'] },
  { case: 'before the line insert_before finds', before: 'a\nMatch User x\n  X 1\n', ansible: A({ insertbefore: '^Match ' }), govern: [...G, 'insert_before=^Match '] },
  { case: 'insert_before = BOF', before: 'a\nb\n', ansible: A({ insertbefore: 'BOF' }), govern: [...G, 'insert_before=BOF'] },
  { case: 'insert_after = EOF', before: 'a\nb\n', ansible: A({ insertafter: 'EOF' }), govern: [...G, 'insert_after=EOF'] },
  { case: 'no line found: at the end', before: 'a\n', ansible: A({ insertbefore: '^Match ' }), govern: [...G, 'insert_before=^Match '] },
  { case: 'a changed block replaced where it is', before: `Port 22\n# BEGIN govern sshd hardening\nPermitRootLogin yes\n# END govern sshd hardening\nx\n`, ansible: A({ insertbefore: '^Port' }), govern: [...G, 'insert_before=^Port'] },
  { case: 'the block there: nothing changes', before: `a\n${OURS}b\n`, ansible: A(), govern: G },
  { case: 'absent: the block and its markers removed', before: `a\n${OURS}b\n`, ansible: { ...MARKER, state: 'absent' }, govern: ['ensure=absent'] },
  { case: 'a last line without a newline gets one before the block', before: 'a', ansible: A(), govern: G },
  { case: 'a new file, create', ansible: A({ create: true }), govern: [...G, 'create=true'] },
  { case: 'marker_prefix', before: 'a\n', ansible: { marker: '; {mark} govern sshd hardening', block: BLOCK }, govern: [...G, 'marker_prefix=;'] },
  {
    case: 'several lines found',
    before: 'Port 22\nPort 23\n',
    ansible: A({ insertafter: '^Port' }),
    govern: [...G, 'insert_after=^Port'],
    differs: { ansible: `Port 22\nPort 23\n${OURS}`, why: 'govern takes the first line found, Ansible the last' },
  },
  {
    case: 'a CRLF file holding the block',
    before: `a\r\n${OURS.replace(/\n/g, '\r\n')}`,
    ansible: A(),
    govern: G,
    differs: { ansible: `a\r\n${OURS.replace(/\n/g, '\r\n')}${OURS}`, why: 'govern finds its markers without their line break; Ansible adds a second block' },
  },
];

describe('block runner against Ansible\'s blockinfile #once', function () {
  this.timeout(120_000);
  ansibleTests('blockinfile', 'block', 'sshd hardening', cases);
});
