// What a template may hold (src/templates/bounds.ts) and how a long one is compiled (pieces.ts):
// however large an unreviewed branch's template, govern plan and govern render end, in bounded
// memory, with the file and line (docs/security.md, "Counts and sizes").
import { expect } from 'chai';
import Handlebars from 'handlebars';
import path from 'node:path';
import { compileTemplate } from '../../src/templates/engine.js';
import { MAX_TEMPLATE_TERMS } from '../../src/templates/bounds.js';
import { inPieces } from '../../src/templates/pieces.js';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('');

describe('templates: bounds, and long templates in pieces #once', () => {
  it('renders a long template in pieces to the text Handlebars gives it whole', () => {
    // Each body longer than a piece: the top level, an each's (block parameters, ../, @index,
    // @root), an else's; whitespace control and standalone lines across the pieces' edges.
    // A blank first line and spaces after the last line break: the edges of the first and last piece.
    const source =
      '\n  \n' +
      lines(300, (i) => `t${i} {{x}}${i % 7 === 0 ? ' {{~y~}} ' : ' '}{{#if (eq ${i % 3} 0)}}zero{{else}}not{{/if}}\n`) +
      '{{#each l as |v|}}\n' +
      lines(400, (i) => `  {{v}} {{../x}} {{@index}}{{#if @first}} first{{/if}} {{@root.y}} ${i}\n`) +
      '{{else}}\n' +
      lines(300, (i) => `none ${i} {{x}}\n`) +
      '{{/each}}\n' +
      lines(300, (i) => `{{#unless (eq ${i} 1)}}\n   u{{~x}}\n{{/unless}}\n`) +
      '  ';
    const eq = (a: unknown, b: unknown) => a === b;
    const vars = [
      { x: 'X', y: 'Y', l: ['a', 'b', 'c'] },
      { x: 'X', y: 'Y', l: [] },
    ];
    const t = compileTemplate('/t/long', source, ['eq'], { variables: ['x', 'y', 'l'], marks: false });
    const whole = Handlebars.compile(source, { strict: true, noEscape: true });
    for (const v of vars) expect(t.render({ eq }, () => undefined, v)).to.equal(whole(v, { helpers: { eq } }));
    const top = inPieces(Handlebars.parse(source)).body;
    expect(top.length, 'the top level is in pieces').to.be.below(50);
  });

  it('renders partials and tells {{log}} in order across the pieces', () => {
    const source = lines(600, (i) => `{{> row}}${i % 100 === 0 ? `{{log "at" ${i}}}` : ''}\n`);
    const said: string[] = [];
    const t = compileTemplate('/t/rows', source, [], { variables: ['x'], marks: false, partials: (name) => ({ file: `/t/${name}`, source: '<{{x}}>' }) });
    const whole = Handlebars.compile(source, { strict: true, noEscape: true });
    const expected = whole({ x: 'X' }, { partials: { row: Handlebars.compile('<{{x}}>', { strict: true }) }, helpers: { log: () => '' } });
    expect(expected).to.contain('<X>');
    expect(t.render({}, (line, text) => said.push(`${line}: ${text}`), { x: 'X' })).to.equal(expected);
    expect(said).to.deep.equal([0, 100, 200, 300, 400, 500].map((i) => `${i + 1}: at ${i}`));
  });

  it(`refuses a template of more than ${MAX_TEMPLATE_TERMS.toLocaleString('en-US')} terms at the line that passes the bound, a partial's there`, async () => {
    const dir = tempDir();
    const big = writeFile(path.join(dir, 'big.tmpl'), lines(MAX_TEMPLATE_TERMS + 1, () => 'a {{x}}\n'));
    const r = await govern(['render', big, '--var', 'x=1']);
    expect([r.code, r.stdout]).to.deep.equal([1, '']);
    expect(r.stderr).to.equal(`govern: ${big}:${MAX_TEMPLATE_TERMS + 1}: more than 100,000 terms in {{ }} (counting the partials included); govern refuses a larger template\n`);
    // The template's terms and its partial's count together: `{{> part}}` is two.
    const main = writeFile(path.join(dir, 'main.tmpl'), '{{> part}}\n' + lines(50_000, () => '{{x}}\n'));
    const part = writeFile(path.join(dir, 'templates.d', 'part'), lines(60_000, () => '{{x}}\n'));
    const p = await govern(['render', main, '--var', 'x=1']);
    expect([p.code, p.stdout]).to.deep.equal([1, '']);
    expect(p.stderr).to.equal(`govern: ${part}:${MAX_TEMPLATE_TERMS - 50_002 + 1}: more than 100,000 terms in {{ }} (counting the partials included); govern refuses a larger template\n`);
  });

  it('renders a template at the bound, all in one each, in a heap of 192 MB (it took 2.2 GB before pieces)', async () => {
    const dir = tempDir();
    const t = writeFile(path.join(dir, 'at-bound.tmpl'), '{{#each l as |v|}}\n' + lines(MAX_TEMPLATE_TERMS - 5, () => 'a {{../x}}\n') + '{{/each}}\n');
    const r = await govern(['render', t, '--vars-json', '{"x": "1", "l": ["p"]}'], { env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=192` } });
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('a 1\n'.repeat(MAX_TEMPLATE_TERMS - 5));
  });

  it('plans a tree of four templates at the bound in a heap of 320 MB: none keeps its parsed form once compiled', async () => {
    const dir = tempDir();
    const files = [1, 2, 3, 4].map((i) => {
      writeFile(path.join(dir, 'templates.d', `t${i}`), lines(MAX_TEMPLATE_TERMS - 1, () => `t${i} {{x}}\n`));
      return `file "${path.join(dir, `out${i}`)}" {\n  ensure   = "present"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n  template = "t${i}"\n  vars     = { x = "${i}" }\n}\n`;
    });
    writeFile(path.join(dir, 'main.hcl'), files.join(''));
    // (f18cfc8 kept each template's parsed form: 4.4 GB for six of them.)
    const r = await govern(['plan', dir], { env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=320` } });
    expect(r.code, r.stderr).to.equal(0);
    for (const i of [1, 2, 3, 4]) expect(r.stdout).to.contain(`file:${path.join(dir, `out${i}`)}`);
  });

  it('refuses blocks nested more than 100 deep before parsing, however deep, and takes 100', async function () {
    // Handlebars' parser took minutes over 33,000 levels before it ran out of stack.
    this.timeout(30_000);
    const dir = tempDir();
    const deep = writeFile(path.join(dir, 'deep.tmpl'), `a\nb\n${'{{#if x}}'.repeat(33_000)}${'{{/if}}'.repeat(33_000)}\n`);
    const r = await govern(['render', deep, '--var', 'x=1']);
    expect([r.code, r.stdout, r.stderr]).to.deep.equal([1, '', `govern: ${deep}:3: blocks nested more than 100 levels deep; govern refuses deeper nesting\n`]);
    // `{{^}}` is the innermost block's else, not a block of its own.
    const hundred = writeFile(path.join(dir, 'hundred.tmpl'), `${'{{#if x}}'.repeat(100)}in{{^}}out${'{{/if}}'.repeat(100)}\n`);
    const ok = await govern(['render', hundred, '--var', 'x=1']);
    expect([ok.code, ok.stdout], ok.stderr).to.deep.equal([0, 'in\n']);
  });

  it('refuses a chain of more than 1,000 {{else if}} at its line, and takes one as long as that with its block', async function () {
    // Handlebars nests each link in the last: its parser took 76 s over 10,000 of them.
    this.timeout(30_000);
    const dir = tempDir();
    const chain = (n: number) => `a\n{{#if x}}1${'{{else if x}}2'.repeat(n)}{{else}}3{{/if}}\n{{#if x}}{{else if x}}{{/if}}\n`;
    const ok = writeFile(path.join(dir, 'ok.tmpl'), chain(999));
    const r = await govern(['render', ok, '--var', 'x=1']);
    expect([r.code, r.stdout], r.stderr).to.deep.equal([0, 'a\n1\n\n']);
    const long = writeFile(path.join(dir, 'long.tmpl'), chain(30_000));
    const refused = await govern(['render', long, '--var', 'x=1']);
    expect([refused.code, refused.stdout, refused.stderr]).to.deep.equal([1, '', `govern: ${long}:2: blocks and their {{else if}} chains nested more than 1000 levels deep (each {{else ...}} of a chain is one); govern refuses deeper nesting\n`]);
  });

  it('refuses sub-expressions nested more than 100 deep and a path of more than 100 parts, at their lines, and takes 100', async () => {
    const dir = tempDir();
    const sub = (n: number) => `{{concat ${'(concat '.repeat(n)}s${')'.repeat(n)}}}`;
    // A "(" in a string is not a sub-expression, and a string's spaces do not make terms.
    const ok = writeFile(path.join(dir, 'ok.tmpl'), `${sub(100)} {{concat "((((" "a b"}} {{x${'.y'.repeat(99)}}}\n`);
    const nested = `{"s": "x", "x": ${'{"y": '.repeat(99)}"v"${'}'.repeat(99)}}`;
    const r = await govern(['render', ok, '--vars-json', nested]);
    expect([r.code, r.stdout], r.stderr).to.deep.equal([0, 'x ((((a b v\n']);
    const deep = writeFile(path.join(dir, 'deep.tmpl'), `a\n${sub(101)}\n`);
    expect((await govern(['render', deep, '--var', 's=1'])).stderr).to.equal(`govern: ${deep}:2: sub-expressions ( ) nested more than 100 levels deep; govern refuses deeper nesting\n`);
    const long = writeFile(path.join(dir, 'long.tmpl'), `a\nb\n{{x${'.y'.repeat(100)}}}\n`);
    expect((await govern(['render', long, '--var', 'x=1'])).stderr).to.equal(`govern: ${long}:3: a path of more than 100 parts (a.b.c); govern refuses a longer one\n`);
  });

  it('tells the first 100 problems of a template and how many more, not a crash, in govern plan', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'templates.d', 'big'), '{{#each l as |v|}}\n' + lines(99_990, () => 'a {{../x}}\n') + '{{/each}}\n');
    writeFile(path.join(dir, 'main.hcl'), `file "${path.join(dir, 'out')}" {\n  ensure   = "present"\n  template = "big"\n}\n`);
    const r = await govern(['plan', dir]);
    expect(r.code).to.equal(1);
    expect(r.stderr).not.to.match(/internal error|RangeError/);
    const told = r.stderr.split('\n').filter((l) => l.includes('templates.d/big'));
    expect(told).to.have.length(101);
    // Line 1's "l" and each line's "../x": 99,991.
    expect(told[0]).to.match(/templates\.d\/big:1: unknown variable or helper "l"/);
    expect(told[100]).to.match(/templates\.d\/big: and 99891 more problems like these \(template of file:/);
  });
});
