// The line decision as a pure function: what the real-file tests cannot show cheaply (long lists of
// line numbers, blank lines, noop warnings), and that an edit keeps every other line's bytes.
import { expect } from 'chai';
import { decide, planMessage, type Desired } from '../../../src/runners/line/decide.js';
import { joinLines, splitLines } from '../../../src/runners/lib/text-edit/lines.js';

const want = (over: Partial<Desired>): Desired => ({ path: '/etc/x', line: 'x = 1', ensure: 'present', create: false, multiple: false, ...over });
const file = (text: string) => ({ type: 'file' as const, content: Buffer.from(text) });

describe('line decision #once', () => {
  it('names at most ten line numbers', () => {
    const plan = decide(want({ line: 'x', ensure: 'absent' }), file('x\n'.repeat(25)), false);
    expect(plan.summary).to.equal('removed lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 15 more');
    expect(plan.content?.toString()).to.equal('');
  });

  it('keeps blank lines and lines with other bytes as they are', () => {
    const plan = decide(want({ match: /^x\s*=/u }), file('\n\nx=2\n\t \n'), false);
    expect(plan.content?.toString()).to.equal('\n\nx = 1\n\t \n');
  });

  it('splits and joins: a missing last newline is added, nothing else changes', () => {
    const bytes = Buffer.from([0xff, 0x0a, 0x0a, 0x61]);
    const lines = splitLines(bytes);
    expect(lines.map((l) => [...l.bytes])).to.deep.equal([[0xff], [], [0x61]]);
    expect([...joinLines(lines)]).to.deep.equal([0xff, 0x0a, 0x0a, 0x61, 0x0a]);
    expect(splitLines(Buffer.alloc(0))).to.deep.equal([]);
  });

  it('reads a CRLF line break as the line\'s own, and a lone CR as part of the line', () => {
    const lines = splitLines(Buffer.from('a\r\n\r\nb\rc\nd'));
    expect(lines.map((l) => [l.text, l.crlf])).to.deep.equal([['a', true], ['', true], ['b\rc', false], ['d', false]]);
    expect(joinLines(lines).toString()).to.equal('a\r\n\r\nb\rc\nd\n');
  });

  it('in noop mode a missing file or directory is a warning, in a real run an error', () => {
    const missing = { type: 'absent' as const, parent: 'missing' as const };
    const noop = decide(want({ create: true }), missing, true);
    expect(planMessage(noop, true)).to.equal('Would have added the line to /etc/x, which does not exist yet');
    expect(noop.warnings).to.deep.equal(['the directory of /etc/x does not exist; an earlier resource may create it, otherwise the real run fails']);
    expect(() => decide(want({ create: true }), missing, false)).to.throw('the directory of /etc/x does not exist');
  });

  it('refuses several matching lines in noop mode too', () => {
    expect(() => decide(want({ match: /^x/u }), file('x=1\nx=2\n'), true)).to.throw('2 lines of /etc/x match "^x" (lines 1 and 2); set multiple = true to replace them all');
  });
});
