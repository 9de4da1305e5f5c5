import { expect } from 'chai';
import { formatText, type Formatted } from '../../src/fmt/format.js';

const fmt = (text: string, templated = true): Formatted => formatText('t.hcl', text, templated);
const formatted = (text: string, templated = true): string => {
  const r = fmt(text, templated);
  if (!r.ok) throw new Error(`left as it is: ${r.reason}`);
  // Idempotent: formatting the result changes nothing.
  const again = fmt(r.text, templated);
  expect(again).to.deep.equal({ ok: true, text: r.text });
  return r.text;
};

describe('fmt: the canonical layout #once', () => {
  it('indents two spaces per level, aligns "=" over consecutive attributes and trailing comments', () => {
    expect(formatted('file "x" {\n    mode="1" # m\n    owner   =   "r"   // o\n  nested {\n   x = 1\n  }\n}\n')).to.equal(
      'file "x" {\n  mode  = "1" # m\n  owner = "r" // o\n  nested {\n    x = 1\n  }\n}\n',
    );
  });

  it('breaks an alignment at a blank line, a comment line and a multi-line value, as terraform fmt does', () => {
    expect(formatted('a = 1\nbbbb = 2\n\nc = 3\n# x\ndddd = 4\nee = {\n  f = 1\n}\ng = 5\n')).to.equal('a    = 1\nbbbb = 2\n\nc = 3\n# x\ndddd = 4\nee = {\n  f = 1\n}\ng = 5\n');
  });

  it('spaces lists and objects as terraform fmt does, keeping every value as written', () => {
    expect(formatted('bb = [ "x" ,"y" , -1 ]\no = {a=1,"b c":2.50}\nn = 1e3\ne = {  }\n')).to.equal('bb = ["x", "y", -1]\no  = { a = 1, "b c": 2.50 }\nn  = 1e3\ne  = {}\n');
  });

  it('puts one blank line after a block, none where there were many, and a final newline', () => {
    expect(formatted('\n\npkg "a" {\n}\npkg "b" {\n  x = 1\n}\n\n\n\n# c\nz = 1')).to.equal('pkg "a" {\n}\n\npkg "b" {\n  x = 1\n}\n\n# c\nz = 1\n');
  });

  it('keeps comments, heredocs and {{...}} exactly, inside strings and out, and templates alone on their lines', () => {
    const text = [
      '{{#if (data "root")}}',
      'file {{quote (data "root")}} {',
      '    contents = <<-EOT',
      '      {{#each users}}',
      '   {{@key}}   {{this}}  ',
      '      {{/each}}',
      '    EOT',
      '  path = "{{data "root"}}/etc"   /* keep */',
      '  vars = { servers = [{{#each s}}{{quote this}}, {{/each}}] }',
      '}',
      '{{/if}}',
      '',
    ].join('\n');
    expect(formatted(text)).to.equal(
      [
        '{{#if (data "root")}}',
        'file {{quote (data "root")}} {',
        '  contents = <<-EOT',
        '      {{#each users}}',
        '   {{@key}}   {{this}}  ',
        '      {{/each}}',
        '    EOT',
        '  path     = "{{data "root"}}/etc" /* keep */',
        '  vars     = { servers = [{{#each s}}{{quote this}}, {{/each}}] }',
        '}',
        '{{/if}}',
        '',
      ].join('\n'),
    );
  });

  it('never adds or removes a blank beside a template expression, which could join or split a word', () => {
    expect(formatted('name{{x}} = 1\na = {{y}}"b"\n')).to.equal('name{{x}} = 1\na         = {{y}}"b"\n');
  });

  it('reads {{ in a data file as text', () => {
    expect(formatted('k = "{{ " \n', false)).to.equal('k = "{{ "\n');
  });
});

describe('fmt: files it leaves as they are #once', () => {
  const refused = (text: string, templated = true) => {
    const r = fmt(text, templated);
    expect(r.ok, JSON.stringify(r)).to.equal(false);
    return r as { ok: false; line: number; reason: string };
  };

  it('a template block whose branches open different blocks', () => {
    const r = refused('{{#if a}}\nfile "x" {\n{{else}}\nfile "y" {\n{{/if}}\n  mode = "1"\n}\n');
    expect(r.line).to.equal(1);
    expect(r.reason).to.match(/the template block \{\{#if a\}\} \(line 1\) opens or closes a bracket that \{\{else\}\} \(line 3\) does not/);
  });

  it('whitespace control, CRLF line ends, a template block in a comment, an unclosed string or heredoc', () => {
    expect(refused('a = 1\n{{~x}}\n').reason).to.match(/strips the blanks/);
    expect(refused('a = 1\r\n').reason).to.match(/carriage returns/);
    expect(refused('# {{#if x}}\na = 1\n').reason).to.match(/inside a comment/);
    expect(refused('a = "x\n').line).to.equal(1);
    expect(refused("a = {{x}}\nb = <<EOT\nx\n").reason).to.match(/heredoc <<EOT is not closed/);
  });

  it('a file without templates that does not parse, with the parser\'s line', () => {
    const r = refused('a = 1\nb = nope\n', false);
    expect(r.line).to.equal(2);
    expect(r.reason).to.match(/^it does not parse: nope is a bare word/);
  });
});
