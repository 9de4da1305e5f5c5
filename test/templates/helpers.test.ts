import { expect } from 'chai';
import { parseHcl } from '../../src/hcl/parse.js';
import type { HclAttribute, HclBlock } from '../../src/hcl/syntax.js';
import { hclQuote } from '../../src/templates/hcl-quote.js';
import { pureHelpers } from '../../src/templates/helpers.js';

const OPTIONS = { hash: {}, loc: { start: { line: 1, column: 0 } } };
const call = (name: string, ...args: unknown[]) => pureHelpers[name](...args, OPTIONS);

describe('template helpers #once', () => {
  it('compares as numbers when both sides are numbers, as facts are', () => {
    expect(call('eq', '2', 2)).to.equal(true);
    expect(call('eq', 'Linux', 'Linux')).to.equal(true);
    expect(call('ne', 'Linux', 'OpenBSD')).to.equal(true);
    expect(call('lt', '9', '10')).to.equal(true);
    expect(call('gt', '10', 9)).to.equal(true);
    expect(call('lt', 'abc', 'abd')).to.equal(true);
    expect(call('le', '3', '3')).to.equal(true);
    expect(call('ge', '2', '3')).to.equal(false);
  });

  it('combines with and, or, not like Handlebars truthiness', () => {
    expect(call('and', true, 'x')).to.equal('x');
    expect(call('and', true, '')).to.equal('');
    expect(call('or', '', 'fallback')).to.equal('fallback');
    expect(call('or', false, 0)).to.equal(0);
    expect(call('not', '')).to.equal(true);
    expect(call('not', [])).to.equal(true);
    expect(call('not', 'false')).to.equal(false);
  });

  it('has default, lower, upper, concat, split and join', () => {
    expect(call('default', '', 'x')).to.equal('x');
    expect(call('default', 'set', 'x')).to.equal('set');
    expect(call('lower', 'DeBian')).to.equal('debian');
    expect(call('upper', 'x86_64')).to.equal('X86_64');
    expect(call('concat', 'nginx', '-', 1)).to.equal('nginx-1');
    expect(call('join', call('split', 'a,b,c', ','), ' | ')).to.equal('a | b | c');
    expect(call('join', 'a', 'b', '-')).to.equal('a-b');
  });

  it('renders yesno from booleans and boolean-like strings, and refuses anything else', () => {
    expect(call('yesno', true)).to.equal('yes');
    expect(call('yesno', false)).to.equal('no');
    expect(call('yesno', 'true')).to.equal('yes');
    expect(call('yesno', '0')).to.equal('no');
    expect(() => call('yesno', 'maybe')).to.throw(/not a boolean/);
  });

  it('checks the number of arguments', () => {
    expect(() => call('eq', 'a')).to.throw(/eq takes 2 arguments, got 1/);
    expect(() => call('lower', {})).to.throw(/expected a string/);
  });

  it('quotes any text so it stays one HCL string, whatever it holds', () => {
    const nasty = [
      'plain',
      'a "quoted" word',
      'back\\slash\\',
      '${file("/etc/shadow")}',
      '%{ if true }x%{ endif }',
      '$${already escaped}',
      'line\nbreak\ttab\r',
      '"} \nevil "x" { a = 1',
      'bell\x07 and unicode é ✓',
      '$',
      '$$',
      '%',
    ];
    for (const value of nasty) {
      const quoted = hclQuote(value);
      const parsed = parseHcl('test.hcl', `r "n" {\n  v = ${quoted}\n}\n`);
      const body = (parsed.items[0] as HclBlock).body as HclAttribute[];
      expect(body.map((item) => item.name), value).to.deep.equal(['v']);
      expect(body[0].value, value).to.equal(value);
    }
  });
});
