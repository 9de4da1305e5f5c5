// The block decision as a pure function: the rows the real-file tests cannot show cheaply (markers
// in the wrong order, bytes that are not UTF-8, noop warnings, a lone marker's warning).
import { expect } from 'chai';
import { decide, type Desired } from '../../../src/runners/block/decide.js';
import { editMessage } from '../../../src/runners/lib/text-edit/decide-edit.js';

const want = (over: Partial<Desired> = {}): Desired => ({
  path: '/etc/x',
  begin: '# BEGIN govern b',
  end: '# END govern b',
  content: 'x\ny',
  ensure: 'present',
  place: { at: 'end' },
  create: false,
  ...over,
});
const file = (text: string | Buffer) => ({ type: 'file' as const, content: Buffer.from(text) });

describe('block decision #once', () => {
  it('markers in the wrong order: the lines from END to BEGIN are the block, replaced there', () => {
    const plan = decide(want(), file('a\n# END govern b\nold\n# BEGIN govern b\nz\n'), false);
    expect(plan.summary).to.equal('replaced the block (lines 2-4)');
    expect(plan.content?.toString()).to.equal('a\n# BEGIN govern b\nx\ny\n# END govern b\nz\n');
  });

  it('the last of each marker is the block\'s, as Ansible', () => {
    const plan = decide(want({ ensure: 'absent' }), file('# BEGIN govern b\n1\n# END govern b\n# BEGIN govern b\n2\n# END govern b\n'), false);
    expect(plan.content?.toString()).to.equal('# BEGIN govern b\n1\n# END govern b\n');
  });

  it('keeps the bytes of other lines, invalid UTF-8 included', () => {
    const before = Buffer.from([0xff, 0x0a]);
    const plan = decide(want(), file(before), false);
    expect([...plan.content!]).to.deep.equal([0xff, 0x0a, ...Buffer.from('# BEGIN govern b\nx\ny\n# END govern b\n')]);
  });

  it('a lone marker is named in a warning and left', () => {
    const plan = decide(want(), file('a\n# END govern b\n'), false);
    expect(plan.warnings).to.deep.equal(['line 2 is the END marker of the block without its BEGIN marker: it is left as it is']);
    expect(plan.content?.toString()).to.equal('a\n# END govern b\n# BEGIN govern b\nx\ny\n# END govern b\n');
  });

  it('a pattern with a lookahead and non-ASCII text is searched as written', () => {
    const plan = decide(want({ place: { at: 'after', pattern: '^Grüße(?= )' } }), file('a\nGrüße x\nb\n'), false);
    expect(plan.summary).to.equal('added the block after line 2');
  });

  it('in noop mode a missing file is a warning, in a real run an error; a link and a FIFO are refused', () => {
    const missing = { type: 'absent' as const, parent: 'directory' as const };
    const noop = decide(want(), missing, true);
    expect(editMessage(noop, true)).to.equal('Would have added the block to /etc/x, which does not exist yet');
    expect(noop.warnings).to.deep.equal(['/etc/x does not exist (set create = true to create it with the block); an earlier resource may create it, otherwise the real run fails']);
    expect(() => decide(want(), missing, false)).to.throw('/etc/x does not exist (set create = true to create it with the block)');
    expect(() => decide(want(), { type: 'symlink', target: '/y' }, false)).to.throw('/etc/x is a symbolic link (to /y)');
    expect(() => decide(want(), { type: 'other', kind: 'a FIFO' }, false)).to.throw('/etc/x is a FIFO, not a regular file; govern edits only a regular file');
  });
});
