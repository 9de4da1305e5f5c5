// A straight template's values rendered without Handlebars' runtime (src/templates/straight-render.ts)
// give what Handlebars gives: the same text, the same helpers' arguments and options, the same errors.
import { expect } from 'chai';
import Handlebars from 'handlebars';
import { compileTemplate } from '../../src/templates/engine.js';
import { pureHelpers, type HelperFn } from '../../src/templates/helpers.js';
import { straightRenderer } from '../../src/templates/straight-render.js';

/** What a helper was given: its arguments, and its options but for data (Handlebars' frame). */
const seen: unknown[] = [];
const spy: HelperFn = (...all) => {
  const { name, hash, loc } = all[all.length - 1] as Record<string, unknown>;
  seen.push({ args: all.slice(0, -1), name, hash, loc });
  return `<${all.slice(0, -1).map(String).join('|')}>`;
};
const helpers: Record<string, HelperFn> = { ...pureHelpers, spy };

function viaHandlebars(source: string, vars: Record<string, unknown>): { text?: string; error?: string; line?: number; seen: unknown[] } {
  seen.length = 0;
  try {
    const text = Handlebars.compile(source, { strict: true, noEscape: true })(vars, { helpers, allowProtoPropertiesByDefault: false });
    return { text, seen: [...seen] };
  } catch (e) {
    return { error: (e as Error).message.replace(/ - \d+:\d+$/, ''), line: (e as { lineNumber?: number }).lineNumber, seen: [...seen] };
  }
}

function direct(source: string, vars: Record<string, unknown>): ReturnType<typeof viaHandlebars> {
  const render = straightRenderer(Handlebars.parse(source));
  if (!render) throw new Error(`not rendered directly: ${source}`);
  seen.length = 0;
  try {
    return { text: render(helpers, vars), seen: [...seen] };
  } catch (e) {
    return { error: (e as Error).message, line: (e as { lineNumber?: number }).lineNumber, seen: [...seen] };
  }
}

const VARS = { port: 8080, name: 'shop', on: false, zero: 0, none: null, list: ['a', 'b'], map: { a: { b: 'deep' }, n: null }, text: 'x' };

describe('straight templates rendered directly #once', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['listen {{port}}\nname "{{name}}"\n', VARS],
    ['{{on}} {{zero}} [{{none}}] {{list}} {{map}} {{map.a.b}} {{list.length}} {{list.[1]}}', VARS],
    ['q = {{quote name}}\nj = {{join list ","}}\n', VARS],
    ['{{spy port "s" 1.5 true null undefined list.[0] map.a.b missing map.x.y k=name j=(spy zero)}}', VARS],
    ['{{spy (spy (upper name)) (default missing "d")}}', VARS],
    ['{{spy}} and {{upper}}', VARS],
    ['a = {{missing}}\n', VARS],
    ['a = 1\nb = {{map.a.c}}\n', VARS],
    ['a = {{map.n.x}}\n', VARS],
    ['{{text.length}} {{spy text.length}}', VARS],
    ['{{spy none.x}}', VARS],
    ['a\n  = {{eq port 8080}} {{spy map "a"}}\n', VARS],
  ];
  for (const [source, vars] of cases) {
    it(`renders ${JSON.stringify(source)} as Handlebars does`, () => {
      expect(direct(source, vars)).to.deep.equal(viaHandlebars(source, vars));
    });
  }

  it("leaves to Handlebars what is more than names and helpers: blocks, this, ../, @data, Handlebars' own helpers", () => {
    for (const source of ['{{#if a}}x{{/if}}', '{{this.a}}', '{{./a}}', '{{../a}}', '{{@root.a}}', '{{spy @index}}', '{{if a}}', '{{spy (each a)}}', '{{"a"}}', '{{!-- c --}}']) {
      expect(straightRenderer(Handlebars.parse(source)), source).to.equal(undefined);
    }
  });

  it('is what a module file compiled straight renders with, and gives its errors with the line', () => {
    const compiled = compileTemplate('m.hcl', 'a = {{port}}\nb = {{quote name}}\n', Object.keys(helpers), { variables: ['port', 'name'], marks: true, straight: true });
    expect(compiled.straight).to.not.equal(undefined);
    expect(compiled.render(helpers, () => {}, { port: 80, name: 'x' })).to.equal('a = 80\nb = "x"\n');
    const missing = compileTemplate('m.hcl', 'a = 1\nb = {{port}}\n', Object.keys(helpers), { variables: ['port'], marks: true, straight: true });
    expect(() => missing.render(helpers, () => {}, {})).to.throw('"port" is not defined').with.property('problems').deep.equal([{ file: 'm.hcl', line: 2, message: '"port" is not defined' }]);
  });
});
