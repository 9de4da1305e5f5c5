import { expect } from 'chai';
import { compileTemplate, type PartialLookup } from '../../src/templates/engine.js';
import { UserError } from '../../src/shared/errors.js';

const lookupIn =
  (files: Record<string, string>): PartialLookup =>
  (name) =>
    files[name] !== undefined ? { file: `/t/${name}`, source: files[name] } : { missing: 'not found' };

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof UserError) return e.problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
    throw e;
  }
  return [];
}

describe('template partials (engine) #once', () => {
  it('renders a partial with the same variables, inside each too', () => {
    const t = compileTemplate('/t/main', '{{> head}}\n{{#each hosts}}{{> item}}{{/each}}', [], {
      variables: ['name', 'hosts'],
      partials: lookupIn({ head: '# {{name}}\n', item: '[{{ip}}]' }),
      marks: false,
    });
    expect(t.render({}, () => undefined, { name: 'web', hosts: [{ ip: 'a' }, { ip: 'b' }] })).to.equal('# web\n[a][b]');
    // Inside each, a name the element lacks is still an error, as it renders.
    expect(() => t.render({}, () => undefined, { name: 'web', hosts: [{ addr: 'a' }] })).to.throw(/\/t\/item:1: "ip" is not defined/);
  });

  it('reports a partial that includes itself, a missing one and a partial\'s unknown variable, with their files and lines', () => {
    const found = problems(() =>
      compileTemplate('/t/main', 'x\n{{> a}}\n{{> gone}}\n', [], { variables: ['v'], partials: lookupIn({ a: '{{> b}}', b: '{{v}}\n{{w}}\n{{> a}}' }), marks: false }),
    );
    expect(found).to.deep.equal([
      '/t/b:3: partial "a" includes itself (a -> b -> a)',
      '/t/b:2: unknown variable or helper "w"',
      '/t/main:3: partial "gone": not found',
    ]);
  });

  it('says the rendered text is too large when partials double it past what a string can hold', () => {
    const files: Record<string, string> = { p0: 'x'.repeat(1 << 20) };
    for (let i = 1; i <= 10; i++) files[`p${i}`] = `{{> p${i - 1}}}{{> p${i - 1}}}`;
    const t = compileTemplate('/t/main', '{{> p10}}\n', [], { variables: [], partials: lookupIn(files), marks: false });
    expect(problems(() => t.render({}, () => undefined, {}))).to.deep.equal([
      '/t/p9:undefined: the rendered text is too large: it passes 511 MiB, the longest text Node.js can hold (partials or loops repeating a large text?)',
    ]);
  });

  it('refuses partials in a state file, and computed partial names', () => {
    expect(problems(() => compileTemplate('/s.hcl', '{{> x}}', []))).to.deep.equal(['/s.hcl:1: partials are supported only in file templates (a file resource\'s template), not in state files']);
    expect(problems(() => compileTemplate('/t', '{{> (lookup "a" "b")}}', [], { partials: lookupIn({}) }))).to.deep.equal([
      '/t:1: a partial is named by its path in the templates directories ({{> nginx/headers}}), not computed',
    ]);
  });
});
