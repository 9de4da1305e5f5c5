// The ini decision as a pure function: the rows the real-file tests cannot show cheaply (many line
// numbers, noop warnings, bytes that are not UTF-8) and that an edit keeps every other line's bytes.
import { expect } from 'chai';
import { decide, type Desired } from '../../../src/runners/ini/decide.js';
import { editMessage } from '../../../src/runners/lib/text-edit/decide-edit.js';

const want = (over: Partial<Desired> = {}): Desired => ({ path: '/etc/x', section: 'S', key: 'k', value: 'v', ensure: 'present', separator: ' = ', create: true, ...over });
const file = (text: string | Buffer) => ({ type: 'file' as const, content: Buffer.from(text) });

describe('ini decision #once', () => {
  it('names at most ten line numbers', () => {
    const plan = decide(want({ ensure: 'absent' }), file(`[S]\n${'k = 1\n'.repeat(25)}`), false);
    expect(plan.summary).to.equal('removed k in [S] (lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 15 more)');
    expect(plan.content?.toString()).to.equal('[S]\n');
  });

  it('keeps the bytes of other lines, invalid UTF-8 included', () => {
    const before = Buffer.concat([Buffer.from('[S]\n'), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from('k = 1\n')]);
    const plan = decide(want(), file(before), false);
    expect([...plan.content!]).to.deep.equal([...Buffer.from('[S]\n'), 0xff, 0xfe, 0x0a, ...Buffer.from('k = v\n')]);
  });

  it('a key with regular expression characters is matched as written', () => {
    const plan = decide(want({ key: 'a.b(c)' }), file('[S]\naxb(c) = 1\na.b(c) = 1\n'), false);
    expect(plan.summary).to.equal('set a.b(c) in [S] (line 3)');
  });

  it('the first section of the name is the one edited; a header with a comment after it counts', () => {
    const plan = decide(want(), file('[S] ; main\nx = 1\n[S]\nk = 2\n'), false);
    expect(plan.content?.toString()).to.equal('[S] ; main\nx = 1\nk = v\n[S]\nk = 2\n');
  });

  it('an empty value is a value: "k =" holds ""', () => {
    expect(decide(want({ value: '' }), file('[S]\nk =\n'), false).changed).to.equal(false);
    expect(decide(want({ value: '' }), file('[S]\nk = 1\n'), false).content?.toString()).to.equal('[S]\nk = \n');
  });

  it('in noop mode a missing directory is a warning, in a real run an error; a link and a FIFO are refused', () => {
    const missing = { type: 'absent' as const, parent: 'missing' as const };
    const noop = decide(want(), missing, true);
    expect(editMessage(noop, true)).to.equal('Would have added the key to /etc/x, which does not exist yet');
    expect(noop.warnings).to.deep.equal(['the directory of /etc/x does not exist; an earlier resource may create it, otherwise the real run fails']);
    expect(() => decide(want(), missing, false)).to.throw('the directory of /etc/x does not exist');
    expect(() => decide(want(), { type: 'symlink', target: '/y' }, false)).to.throw('/etc/x is a symbolic link (to /y)');
    expect(() => decide(want(), { type: 'other', kind: 'a FIFO' }, false)).to.throw('/etc/x is a FIFO, not a regular file; govern edits only a regular file');
  });

  it('a created file holds the section and the key, or the key alone', () => {
    const absent = { type: 'absent' as const, parent: 'directory' as const };
    expect(decide(want(), absent, false)).to.deep.include({ summary: 'created /etc/x with the key', changed: true });
    expect(decide(want(), absent, false).content?.toString()).to.equal('[S]\nk = v\n');
    expect(decide(want({ section: undefined, separator: '=' }), absent, false).content?.toString()).to.equal('k=v\n');
  });

  it('a new key never goes inside a block the block runner manages: before it', () => {
    const plan = decide(want(), file('[S]\nx = 1\n; BEGIN govern b\nb = 2\n; END govern b\n'), false);
    expect(plan.content?.toString()).to.equal('[S]\nx = 1\nk = v\n; BEGIN govern b\nb = 2\n; END govern b\n');
  });
});
