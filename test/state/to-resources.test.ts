// A parsed state file to resources: values in the order written, nested blocks as Terraform's JSON
// syntax writes them, and where each key is.
import { expect } from 'chai';
import { parseHcl } from '../../src/hcl/parse.js';
import { SourceLines } from '../../src/state/source-lines.js';
import { toResources } from '../../src/state/to-resources.js';

function resourcesOf(text: string) {
  return toResources('/s/a.hcl', parseHcl('/s/a.hcl', text).items, new SourceLines('/s/a.hcl', text, text), 0);
}

describe('toResources #once', () => {
  it('keeps keys in the order written, nested blocks as lists of bodies under their type and labels, with the line of each key', () => {
    const text = 'x "a" {\n  z = 1\n  n {\n    v = 1\n  }\n  a = "two"\n  n {\n    v = 2\n  }\n  m "l1" "l2" {\n    w = true\n  }\n}\n';
    const { resources, problems } = resourcesOf(text);
    expect(problems).to.deep.equal([]);
    expect(resources[0].attrs).to.deep.equal({ z: 1, n: [{ v: 1 }, { v: 2 }], a: 'two', m: { l1: { l2: [{ w: true }] } } });
    expect(Object.keys(resources[0].attrs)).to.deep.equal(['z', 'n', 'a', 'm']);
    expect(resources[0].keyAt).to.deep.equal({ z: { file: '/s/a.hcl', line: 2 }, n: { file: '/s/a.hcl', line: 3 }, a: { file: '/s/a.hcl', line: 6 }, m: { file: '/s/a.hcl', line: 10 } });
  });

  it('refuses a name given both as an attribute and as a block, at the resource', () => {
    const { problems } = resourcesOf('x "a" {\n  n = 1\n  n {\n  }\n}\n');
    expect(problems).to.deep.equal([{ file: '/s/a.hcl', line: 1, message: 'n is given both as an attribute and as a block (line 3)' }]);
  });

  it('keeps a key named __proto__ as a key', () => {
    const { resources } = resourcesOf('x "a" {\n  m = { __proto__ = 1 }\n}\n');
    const m = resources[0].attrs.m as Record<string, unknown>;
    expect(Object.getPrototypeOf(m)).to.equal(Object.prototype);
    expect(JSON.stringify(m)).to.equal('{"__proto__":1}');
  });
});
