// The parser against the reference decoder (HCL's own parser, through @cdktf/hcl2json): the same
// values for every text both accept, and a refusal for every text the reference refuses.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseHcl } from '../../src/hcl/parse.js';
import { inReferenceShape, referenceDecode } from './reference-decoder.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

function mine(text: string): unknown {
  try {
    return inReferenceShape(parseHcl('f.hcl', text).items);
  } catch {
    return undefined;
  }
}

/**
 * Where the two may differ, on purpose: the reference turns a literal "$" written as \u0024 just
 * before an interpolation into an escape (its output cannot tell them apart), and refuses a carriage
 * return that does not end a line, which govern keeps as text.
 */
function knownDifference(text: string, ours: unknown, theirs: unknown): boolean {
  return (ours === undefined && /\\u0024\$\{|\\u0025%\{/.test(text)) || (theirs === undefined && /\r(?!\n)/.test(text));
}

async function expectSame(text: string): Promise<void> {
  const ours = mine(text);
  const theirs = await referenceDecode(text);
  if (knownDifference(text, ours, theirs)) return;
  expect(ours, JSON.stringify(text)).to.deep.equal(theirs);
}

const PIECES = ['a', ' ', '$', '%', '{', '}', '$${', '%%{', '${x}', '%{x}', '\\n', '\\t', '\\"', '\\\\', '\\u00e9', '\\u0301', 'e\u0301', '\\U0001F600', '\\q', '\\u0024', '"', '#', 'é', '\u0000', '\\uD800', 'EOT', '\t', '\r', '\u00a0'];
const INDENTS = ['  ', '\t', ' \t', '', '   ', '\u00a0 '];
const VALUES = ['1', '-2.5', '1e3', '007', 'true', 'false', 'null', '[]', '[1, "a",]', '{}', '{ a = 1, "b" : [true] }', '{\n a = 1\n b = { c = null }\n}', 'bare', 'a.b', 'f(1)', '1 + 1', '"x"', '1.', '.5', '[1 2]'];

describe('parseHcl against the reference decoder #once', () => {
  it('decodes quoted strings, labels, keys and heredocs of every kind as the reference does', async function () {
    this.timeout(120_000);
    const next = random(26);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    for (let i = 0; i < 400; i++) {
      const body = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pick(PIECES)).join('');
      const lines = Array.from({ length: 1 + Math.floor(next() * 4) }, () => Array.from({ length: Math.floor(next() * 6) }, () => pick(PIECES)).join('').replace(/"/g, ''));
      await expectSame(`x "a" {\n  s = "${body}"\n  t = 1\n}\n`);
      await expectSame(`x "${body}" {\n  m = { "${body}" = "${body}", k = ["${body}", 2] }\n}\n`);
      await expectSame(`x "a" {\n  s = <<EOT\n${lines.join('\n')}\nEOT\n  u = <<-EOT\n  ${lines.join('\n  ')}\n  EOT\n}\n`);
      await expectSame(`x "a" {\n  u = <<-EOT\n${lines.map((l) => pick(INDENTS) + l).join(i % 2 ? '\r\n' : '\n')}\n  EOT\n}\n`);
    }
  });

  it('reads values and blocks as the reference does', async function () {
    this.timeout(60_000);
    const next = random(7);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    for (let i = 0; i < 300; i++) {
      const attrs = Array.from({ length: Math.floor(next() * 4) }, (_, k) => `  a${k} = ${pick(VALUES)}`);
      const nested = next() < 0.3 ? [`  n ${next() < 0.5 ? '"l" ' : ''}{\n    v = ${pick(VALUES)}\n  }`, '  n {\n  }'] : [];
      await expectSame(`x "a" {\n${[...attrs, ...nested].join('\n')}\n}\ny b {\n}\n`);
    }
  });

  it('reads the examples as the reference does', async () => {
    const dir = path.join(__dirname, '../../../examples/demo');
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.hcl'))) {
      // Rendered by hand: each Handlebars expression becomes a word, or a string where it is the value.
      const text = fs.readFileSync(path.join(dir, name), 'utf8').replace(/= \{\{quote [^}]*\}\}/g, '= "q"').replace(/\{\{[^}]*\}\}/g, 'h');
      expect(mine(text), name).not.to.equal(undefined);
      await expectSame(text);
    }
  });
});
