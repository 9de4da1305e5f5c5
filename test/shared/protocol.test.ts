import { expect } from 'chai';
import { decodeArgs, encodeArgs, formatResult, paramsOf, parseResult } from '../../src/shared/protocol.js';

describe('runner protocol #once', () => {
  it('encodes strings as they are, numbers in decimal, booleans, lists as repeated keys, maps as JSON', () => {
    expect(encodeArgs({ foo: 'yes, no, maybe so', n: 42, f: 1.5, b: false, returns: [0, 2], m: { a: 'b' }, skip: null })).to.deep.equal([
      'foo=yes, no, maybe so',
      'n=42',
      'f=1.5',
      'b=false',
      'returns=0',
      'returns=2',
      'm={"a":"b"}',
    ]);
  });

  it('decodes the name and key=value arguments, keeping repeated keys in order', () => {
    const { name, params } = decodeArgs(['/etc/fstab old', 'foo=yes, no, maybe so', 'returns=0', 'returns=2', 'eq=a=b']);
    expect(name).to.equal('/etc/fstab old');
    expect(params.get('foo')).to.equal('yes, no, maybe so');
    expect(params.list('returns')).to.deep.equal(['0', '2']);
    expect(params.get('eq')).to.equal('a=b');
    expect(() => params.get('returns')).to.throw(/given 2 times/);
  });

  it('refuses an argument that is not key=value', () => {
    expect(() => decodeArgs(['x', 'novalue'])).to.throw(/not key=value/);
    expect(() => decodeArgs(['x', '=v'])).to.throw(/not key=value/);
    expect(() => decodeArgs([])).to.throw(/usage/);
  });

  it('reads attributes back as the runner will (a list as repeated keys, null left out)', () => {
    const params = paramsOf({ a: 'x', n: 3, returns: [0, 2], skip: null });
    expect(params.keys()).to.deep.equal(['a', 'n', 'returns']);
    expect(params.list('returns')).to.deep.equal(['0', '2']);
    expect(params.count('returns')).to.equal(2);
    expect(params.get('n')).to.equal('3');
  });

  it('separates result lines from log lines, and keeps a message on one line', () => {
    const parsed = parseResult('working...\nchanged=true\nmessage=installed 1.0\nmore log\n');
    expect(parsed).to.deep.equal({ changed: true, message: 'installed 1.0', log: ['working...', 'more log'] });
    expect(parseResult('nothing to say\n').changed).to.equal(false);
    expect(formatResult({ changed: false, message: 'a\nb' })).to.equal('changed=false\nmessage=a b\n');
  });

  it('carries a diff as one diff= line per line, in order, and reads it back whole', () => {
    const diff = '--- /etc/x\tcurrent\n+++ /etc/x\tdesired\n@@ -1 +1 @@\n-old\n+new\n';
    const text = formatResult({ changed: true, message: 'changed content', diff });
    expect(text).to.equal('changed=true\nmessage=changed content\ndiff=--- /etc/x\tcurrent\ndiff=+++ /etc/x\tdesired\ndiff=@@ -1 +1 @@\ndiff=-old\ndiff=+new\ndiff=\n');
    expect(parseResult(`log line\n${text}`)).to.deep.equal({ changed: true, message: 'changed content', diff, log: ['log line'] });
    expect(parseResult('changed=false\n').diff).to.equal(undefined);
  });
});
