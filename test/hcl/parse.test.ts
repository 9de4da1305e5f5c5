import { expect } from 'chai';
import { parseHcl } from '../../src/hcl/parse.js';
import type { HclAttribute, HclBlock } from '../../src/hcl/syntax.js';
import { UserError, type Problem } from '../../src/shared/errors.js';

/** The problems of a text the parser refuses. */
function problems(text: string): Problem[] {
  try {
    parseHcl('f.hcl', text);
  } catch (e) {
    if (e instanceof UserError) return e.problems;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(text)}`);
}

/** The value of the one attribute of the one block of a text. */
function valueOf(text: string): unknown {
  const block = parseHcl('f.hcl', text).items[0] as HclBlock;
  return (block.body[0] as HclAttribute).value;
}

const inBlock = (value: string) => valueOf(`x "a" {\n  v = ${value}\n}\n`);

describe('parseHcl #once', () => {
  describe('structure', () => {
    it('keeps items in source order with the line and column of each name', () => {
      const text = ['# a comment', 'service "nginx" {', '  state = "running"', '  nested "l1" l2 {', '    inner = 1', '  }', '  after = ["pkg:nginx"]', '}', 'top = true', 'pkg "a" { x = "}" }', ''].join('\n');
      expect(parseHcl('f.hcl', text).items).to.deep.equal([
        {
          kind: 'block',
          type: 'service',
          labels: ['nginx'],
          at: { line: 2, column: 1 },
          body: [
            { kind: 'attribute', name: 'state', value: 'running', at: { line: 3, column: 3 } },
            { kind: 'block', type: 'nested', labels: ['l1', 'l2'], at: { line: 4, column: 3 }, body: [{ kind: 'attribute', name: 'inner', value: 1, at: { line: 5, column: 5 } }] },
            { kind: 'attribute', name: 'after', value: ['pkg:nginx'], at: { line: 7, column: 3 } },
          ],
        },
        { kind: 'attribute', name: 'top', value: true, at: { line: 9, column: 1 } },
        { kind: 'block', type: 'pkg', labels: ['a'], at: { line: 10, column: 1 }, body: [{ kind: 'attribute', name: 'x', value: '}', at: { line: 10, column: 11 } }] },
      ]);
    });

    it('reads comments of the three kinds, CRLF line ends, and an empty file', () => {
      const text = 'x "a" { // one\r\n  /* two\r\n  lines */ v = 1 # three\r\n}\r\n';
      expect(parseHcl('f.hcl', text).items[0]).to.deep.include({ body: [{ kind: 'attribute', name: 'v', value: 1, at: { line: 3, column: 12 } }] });
      expect(parseHcl('f.hcl', '').items).to.deep.equal([]);
      expect(parseHcl('f.hcl', '# nothing\n\n').items).to.deep.equal([]);
    });
  });

  describe('values', () => {
    it('reads numbers, booleans, null, lists and objects', () => {
      expect(inBlock('42')).to.equal(42);
      expect(inBlock('-1.5e3')).to.equal(-1500);
      expect(inBlock('- 2')).to.equal(-2);
      expect(inBlock('007')).to.equal(7);
      expect(inBlock('1e400')).to.equal(Infinity); // refused later as out of range
      expect(inBlock('[true, false, null]')).to.deep.equal([true, false, null]);
      expect(inBlock('[\n    1,\n    "two",\n  ]')).to.deep.equal([1, 'two']);
      expect(inBlock('{ a = 1, "b c" : [2], 3 = { d = null } }')).to.deep.equal({ a: 1, 'b c': [2], '3': { d: null } });
      expect(inBlock('{\n    a = 1\n    b = 2\n  }')).to.deep.equal({ a: 1, b: 2 });
      expect(inBlock('{ a = 1, a = 2 }'), 'the last of two equal keys, as in HCL').to.deep.equal({ a: 2 });
      const proto = inBlock('{ __proto__ = 1 }') as Record<string, unknown>;
      expect(Object.getPrototypeOf(proto)).to.equal(Object.prototype);
      expect(Object.keys(proto)).to.deep.equal(['__proto__']);
    });

    it('decodes the escapes of a quoted string, and $${ and %%{ as a literal ${ and %{', () => {
      expect(inBlock('"tab\\there \\"q\\" back\\\\slash \\r\\n \\u00e9 \\U0001F600"')).to.equal('tab\there "q" back\\slash \r\n é 😀');
      expect(inBlock('"$${literal} %%{literal} $ % $$ %% $$${x}"')).to.equal('${literal} %{literal} $ % $$ %% $${x}');
      expect(inBlock('"\\u0000"'), 'a NUL is a value; the state files refuse it with their own message').to.equal('\0');
      expect(inBlock('"e\u0301"'), 'normalized to NFC as HCL does').to.equal('\u00e9');
    });

    it('keeps a label as written: escapes decoded, not normalized', () => {
      expect((parseHcl('f.hcl', 'x "e\u0301 \\t $${x}" {}\n').items[0] as HclBlock).labels).to.deep.equal(['e\u0301 \t ${x}']);
    });

    it('reads heredocs, <<- less the indentation its lines share', () => {
      expect(inBlock('<<EOT\n  one $${x}\n\n two\n  EOT')).to.equal('  one ${x}\n\n two\n');
      expect(inBlock('<<-EOT\n    one\n\n  \ttwo\n     \n  EOT')).to.equal(' one\n\ntwo\n     \n');
      expect(inBlock('<<EOT\r\nwindows\r\nEOT')).to.equal('windows\r\n');
      expect(inBlock('<<EOT\nEOT')).to.equal('');
    });
  });

  describe('mistakes: one error each, with its line and column', () => {
    it('a stray quote is one error, at the string it leaves open', () => {
      const text = 'x "a" {\n  v = "one"\n  w = "two""\n  y = 1\n}\nx "b" {\n  z = "3"\n}\n';
      expect(problems(text)).to.deep.equal([
        { file: 'f.hcl', line: 3, column: 12, message: 'a stray " after a value: a quoted string opens and closes with one " (write \\" for a quote inside it)' },
      ]);
      expect(problems('x "a" {\n  v = "open\n  w = "x"\n}\n')).to.deep.equal([
        { file: 'f.hcl', line: 2, column: 7, message: 'this quoted string is not closed on its line (a stray or missing "?): a quoted string ends on the line it starts on; write \\n for a line break, or use a heredoc (<<EOT)' },
      ]);
    });

    it('a bare word says it is one and to quote it', () => {
      expect(problems('file "/x" {\n  ensure = directory\n}\n')).to.deep.equal([{ file: 'f.hcl', line: 2, column: 12, message: 'directory is a bare word, which HCL would read as an expression: quote it ("directory")' }]);
      expect(problems('x "a" {\n  v = [ok, no]\n}\n')[0]).to.include({ line: 2, column: 8, message: 'ok is a bare word, which HCL would read as an expression: quote it ("ok")' });
    });

    it('${ and %{ name their escapes', () => {
      const [p] = problems('x "a" {\n  v = "a ${var.x}"\n}\n');
      expect(p).to.include({ line: 2, column: 10 });
      expect(p.message).to.match(/^"\$\{" starts an HCL interpolation, which govern does not evaluate: a literal "\$\{" is written "\$\$\{"/);
      expect(problems('x "a" {\n  v = <<EOT\nfine\n  %{ if x }\nEOT\n}\n')[0]).to.include({ line: 4, column: 3 });
      expect(problems('x "a" {\n  v = <<EOT\n%{ if x }\nEOT\n}\n')[0].message).to.match(/^"%\{" starts an HCL template directive, which govern does not evaluate: a literal "%\{" is written "%%\{"/);
      expect(problems('x "${a}" {\n}\n')[0]).to.include({ line: 1, column: 4 });
    });

    it('names function calls, references and operators as expressions', () => {
      expect(problems('x "a" {\n  v = file("/etc/x")\n}\n')[0].message).to.match(/^file\(\.\.\.\) is an HCL function call, which govern does not evaluate/);
      expect(problems('x "a" {\n  v = var.x\n}\n')[0].message).to.match(/^var\.\.\.\. is an HCL reference/);
      expect(problems('x "a" {\n  v = 1 + 2\n}\n')[0]).to.include({ line: 2, column: 9 });
      expect(problems('x "a" {\n  v = 1 + 2\n}\n')[0].message).to.match(/^"\+" makes an HCL expression, which govern does not evaluate/);
    });

    it('says what is missing or unclosed', () => {
      expect(problems('x "a" {\n  v = \n}\n')[0]).to.include({ line: 2, column: 7 });
      expect(problems('x "a" {\n  v = \n}\n')[0].message).to.match(/^Invalid expression: expected a value \(a quoted string, a number/);
      expect(problems('x "a" {\n  v = 1\n')[0]).to.deep.include({ line: 1, column: 1, message: 'the block x is not closed: its "{" has no matching "}"' });
      expect(problems('x "a" {\n  v = <<EOT\nno end\n}\n')[0]).to.include({ line: 2, column: 7 });
      expect(problems('x "a" {\n  v = [1, 2\n}\n')[0].line).to.equal(3);
      expect(problems('x "a" {\n  v = 1\n  v = 2\n}\n')[0]).to.deep.include({ line: 3, column: 3, message: 'v is set twice (first at line 2): an attribute is set once in a block' });
      expect(problems('x "a" {\n  v = "\\q"\n}\n')[0]).to.include({ line: 2, column: 8 });
      expect(problems('x "a" {\n  v = "\\uD800"\n}\n')[0].message).to.equal('invalid escape: \\uD800 is not a Unicode character');
      expect(problems('x "a" {\n  v = 1.\n}\n')[0].message).to.match(/^not a number/);
      expect(problems('}\n')[0].message).to.equal('a "}" that closes no block');
      expect(problems('x "a" {} y "b" {}\n')[0].message).to.match(/^expected a new line after each attribute and block, found "y"/);
    });
  });

  describe('hostile input', () => {
    const nested = (depth: number) => `x "a" {\n  m = ${'{ a = '.repeat(depth)}1${' }'.repeat(depth)}\n}\n`;

    it('takes 100 levels of nesting (the block is one) and refuses more with the line, however deep', () => {
      expect(() => parseHcl('f.hcl', nested(99))).not.to.throw();
      expect(problems(nested(100))).to.deep.equal([{ file: 'f.hcl', line: 2, message: 'nested more than 100 levels deep (brackets, braces, blocks and interpolations); govern refuses deeper nesting' }]);
      expect(problems(nested(1_000_000))[0].line).to.equal(2);
      expect(problems(`${'x {\n'.repeat(200)}`)[0].line).to.equal(101);
    });

    it('reads values of 50 MB, quoted or heredoc, in one pass', function () {
      this.timeout(60_000);
      const big = 'é'.repeat(25_000_000);
      expect(inBlock(`"${big}"`)).to.equal(big);
      const lines = '  line $${x}\n'.repeat(4_000_000);
      expect((inBlock(`<<-EOT\n${lines}  EOT`) as string).length).to.equal(lines.length - 4_000_000 * 3);
    });

    it('refuses a NUL outside a string, and half a UTF-16 pair anywhere, with the line and column', () => {
      expect(problems('x "a" {\n  \0 = 1\n}\n')[0]).to.deep.include({ line: 2, column: 3, message: 'expected an attribute (name = value) or a block (type "label" { ... }), found the control character U+0000' });
      expect(problems('x "a" {\n  v = "ab\uD800"\n}\n')[0]).to.deep.include({ line: 2, column: 10, message: 'not valid Unicode (a lone surrogate U+D800)' });
    });
  });
});
