import { expect } from 'chai';
import { shieldHcl } from '../../src/state/hcl-shield.js';
import { parseHcl } from '../../src/state/hcl.js';
import type { UserError } from '../../src/shared/errors.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const hcl2json = require('@cdktf/hcl2json') as { parse(file: string, text: string): Promise<Record<string, unknown>> };

/** hcl2json's own answer: the parsed text, or its errors as govern reports them. */
async function direct(text: string): Promise<unknown> {
  try {
    return await hcl2json.parse('GOVERN_STATE_FILE', text);
  } catch {
    return errorOf(() => parseHcl('f.hcl', text, Infinity));
  }
}

async function errorOf(parse: () => Promise<unknown>): Promise<unknown> {
  try {
    return await parse();
  } catch (e) {
    return (e as UserError).problems;
  }
}

/** govern's answer, lifting every literal it can. */
const shielded = (text: string) => errorOf(() => parseHcl('f.hcl', text, 1));

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

const PIECES = ['a', ' ', '$', '%', '{', '}', '$${', '%%{', '${x}', '\\n', '\\t', '\\"', '\\\\', '\\u00e9', '\\u0301', 'e\u0301', '\\U0001F600', '\\q', '\\u0024', '"', '#', 'é', '\u0000', '\\uD800', 'EOT', '\t', '\r'];

describe('hcl-shield: long literals kept away from hcl2json', () => {
  it('gives exactly what hcl2json gives, for quoted strings and heredocs of every kind', async function () {
    this.timeout(300_000);
    const next = random(19);
    const piece = () => PIECES[Math.floor(next() * PIECES.length)];
    for (let i = 0; i < 400; i++) {
      const body = Array.from({ length: 1 + Math.floor(next() * 12) }, piece).join('');
      const lines = Array.from({ length: 1 + Math.floor(next() * 3) }, () => Array.from({ length: Math.floor(next() * 6) }, piece).join('').replace(/"/g, ''));
      const texts = [
        `x "a" {\n  s = "${body}"\n  t = 1\n}\n`,
        `x "${body}" {\n  m = { "${body}" = "${body}", k = ["${body}", 2] }\n}\n`,
        `x "a" {\n  s = <<EOT\n${lines.join('\n')}\nEOT\n  u = <<-EOT\n  ${lines.join('\n  ')}\n  EOT\n}\n`,
      ];
      for (const text of texts) expect(await shielded(text), JSON.stringify(text)).to.deep.equal(await direct(text));
    }
  });

  it('reports a syntax error after a lifted literal on the text as written', async () => {
    const text = `x "a" {\n  s = <<EOT\n${'long line\n'.repeat(10)}EOT\n  t = = 1\n}\n`;
    expect(shieldHcl('f.hcl', text, 1).lifted.size).to.equal(1);
    expect(await shielded(text)).to.deep.equal([{ file: 'f.hcl', line: 14, column: 7, message: 'Invalid expression; Expected the start of an expression, but found an invalid expression token.' }]);
  });

  it('refuses nesting deeper than 100 levels with the line, where hcl2json would overflow its stack', () => {
    const deep = (n: number) => `x "a" {\n  m = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n}\n`;
    expect(() => shieldHcl('f.hcl', deep(99), 1)).not.to.throw();
    expect(() => shieldHcl('f.hcl', deep(100), 1)).to.throw('f.hcl:2: nested more than 100 levels deep');
    expect(() => shieldHcl('f.hcl', `x "a" {\n\n  s = "${'${['.repeat(60)}"\n}\n`, 1)).to.throw('f.hcl:3: nested more than 100');
  });
});
