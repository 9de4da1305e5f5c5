// The one diff builder of the runners that change content: the diff, or none with the reason logged,
// in the order every runner applies: privacy, size, binary content, too many changes.
import { expect } from 'chai';
import { contentDiff } from '../../../src/runners/lib/content-diff.js';

function diff(before: Buffer | undefined, after: Buffer, modes: (number | undefined)[], limit?: number) {
  const log: string[] = [];
  return { text: contentDiff('/etc/x', before, after, modes, (line) => log.push(line), limit), log };
}

describe('runner library: content diffs #once', () => {
  it('a text change readable by all is a unified diff, and logs nothing', () => {
    const r = diff(Buffer.from('a\n'), Buffer.from('b\n'), [0o644, 0o644]);
    expect(r.text).to.contain('-a\n+b');
    expect(r.log).to.deep.equal([]);
  });

  it('none, with the reason, for a private file (before binary content), a large one, binary content', () => {
    expect(diff(Buffer.from('\0'), Buffer.from('b\n'), [0o640]).log).to.deep.equal(['content changed (diff not shown: /etc/x is not readable by all (mode 0640), and the report is)']);
    expect(diff(undefined, Buffer.from('b\n'), [0o644], 1024 * 1024).log).to.deep.equal(['content changed (diff not shown: larger than 1 MiB)']);
    expect(diff(Buffer.from('a\n'), Buffer.alloc(2 * 1024 * 1024, 'b'), [0o644], 1024 * 1024).log).to.deep.equal(['content changed (diff not shown: larger than 1 MiB)']);
    const binary = diff(Buffer.from('caf\xe9\n', 'latin1'), Buffer.from('b\n'), [0o644, undefined]);
    expect(binary.text).to.equal(undefined);
    expect(binary.log).to.deep.equal(['content changed (diff not shown: binary content)']);
  });
});
