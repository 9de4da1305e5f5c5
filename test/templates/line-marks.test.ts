// Which source line each rendered line came from, through loops, conditionals and whitespace control.
import { expect } from 'chai';
import Handlebars from 'handlebars';
import { compileTemplate } from '../../src/templates/engine.js';
import { unmarkLines } from '../../src/templates/line-marks.js';
import { pureHelpers } from '../../src/templates/helpers.js';
import { renderWithLines } from '../../src/templates/render.js';
import type { FactSources } from '../../src/templates/fact-sources.js';

function render(source: string, helpers: Record<string, (...args: unknown[]) => unknown> = {}) {
  const all = { ...pureHelpers, ...helpers };
  return unmarkLines(compileTemplate('t.hcl', source, Object.keys(all)).render(all, () => {}));
}

describe('template source lines #once', () => {
  it('maps each rendered line to its source line, through a loop and a dropped conditional', () => {
    const source = [
      'file "/a" {', //                            1
      '{{#each (split "x,y,z" ",")}}', //          2
      '  # {{this}}', //                           3
      '{{/each}}', //                              4
      '{{#if (eq "a" "b")}}', //                   5
      '  never = true', //                         6
      '{{/if}}', //                                7
      '  mode = "{{lower "0888"}}"', //            8
      '}', //                                      9
      '',
    ].join('\n');
    const { text, sourceLines } = render(source);
    expect(text).to.equal('file "/a" {\n  # x\n  # y\n  # z\n  mode = "0888"\n}\n');
    expect(sourceLines.slice(0, 6)).to.deep.equal([1, 3, 3, 3, 8, 9]);
  });

  it('has no source line for the lines a helper produced, but the line it started on', () => {
    const { text, sourceLines } = render('a = 1\nb = {{two}}\nc = 3\n', { two: () => '"x\ny"' });
    expect(text).to.equal('a = 1\nb = "x\ny"\nc = 3\n');
    expect(sourceLines.slice(0, 4)).to.deep.equal([1, 2, undefined, 3]);
  });

  it('maps a line that starts with a value, and lines after one that held no mustache', () => {
    const { text, sourceLines } = render('{{#if true}}\n{{lower "K"}} = 1\n{{/if}}\n\nz = 2\n');
    expect(text).to.equal('k = 1\n\nz = 2\n');
    expect(sourceLines.slice(0, 3)).to.deep.equal([2, 4, 5]);
  });

  it('renders exactly what Handlebars renders without the marks: standalone blocks, else-if chains, whitespace control', () => {
    const templates = [
      '{{#if (eq 1 2)}}\na\n{{else if (eq 1 1)}}\nb\n{{else}}\nc\n{{/if}}\nd\n',
      'x {{#if true}}\n  y\n{{/if}} z\n',
      'a {{~#if true}}\n  b\n{{~/if}}\nc\n',
      '  {{#each (split "p,q" ",")}}\n  - {{this}}\n  {{/each}}\nend\n',
      '{{#unless false}}{{#if true}}in{{/if}}{{/unless}}\n  {{! a comment }}\nlast {{~ lower "X" ~}} \n tail\n',
      'list = [\n{{#each (split "1,2" ",")}}\n  {{this}},\n{{/each}}\n]\n',
    ];
    for (const source of templates) {
      const plain = Handlebars.compile(source, { strict: true, noEscape: true })({}, { helpers: pureHelpers });
      expect(render(source).text, JSON.stringify(source)).to.equal(plain);
    }
  });

  it('leaves a template without mustaches as it is, and one that holds the mark characters unmarked', () => {
    expect(render('a\nb\n')).to.deep.equal({ text: 'a\nb\n', sourceLines: [] });
    const odd = render('x = "\uE000"\n{{#if true}}y{{/if}}\n');
    expect(odd).to.deep.equal({ text: 'x = "\uE000"\ny\n', sourceLines: [] });
  });

  describe('a straight template (a module file: text and one-line values only) renders without marks', () => {
    const noFacts: FactSources = { local: { peek: () => undefined, load: async () => undefined } };
    let n = 0;
    async function module(source: string, vars: Record<string, string>) {
      const logs: string[] = [];
      const [rendered] = await renderWithLines([{ file: `straight${n++}.hcl`, source, vars, marks: true }], noFacts, (line) => logs.push(line));
      const all = { ...pureHelpers };
      const marked = unmarkLines(compileTemplate('m.hcl', source, [...Object.keys(all), 'fact', 'hostfact', 'hosts', 'data'], { variables: Object.keys(vars) }).render(all, () => {}, vars));
      return { rendered, marked, logs };
    }

    it('gives each line its own source line, as the marks would, and none to the empty line after the last break', async () => {
      for (const source of ['a = {{x}}\nb = "{{upper x}}"\n\nc = 1\n', '{{x}} = 1\nb = {{x}}', 'a = 1\n{{x}}']) {
        const { rendered, marked } = await module(source, { x: 'v' });
        expect({ text: rendered.text, sourceLines: rendered.sourceLines }, JSON.stringify(source)).to.deep.equal(marked);
      }
    });

    it('renders again with marks when a value holds a line break, its log lines said once', async () => {
      const source = 'a = 1\nb = {{x}}{{log "seen"}}\nc = {{lower (upper "K")}}\n';
      const { rendered, marked, logs } = await module(source, { x: '"p\nq"' });
      expect(rendered.text).to.equal('a = 1\nb = "p\nq"\nc = k\n');
      expect(rendered.sourceLines.slice(0, 4)).to.deep.equal([1, 2, undefined, 3]);
      expect({ text: rendered.text, sourceLines: rendered.sourceLines }).to.deep.equal(marked);
      expect(logs).to.have.length(1);
      expect(logs[0]).to.match(/straight\d+\.hcl:2: seen/);
    });
  });
});
