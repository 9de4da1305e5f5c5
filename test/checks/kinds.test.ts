// A check block read: a misspelt key of its kind is named with the key it is likely to be.
import { expect } from 'chai';
import { checkOf } from '../../src/checks/kinds.js';
import { parseHcl } from '../../src/hcl/parse.js';
import type { HclBlock } from '../../src/hcl/syntax.js';

function problemsOf(text: string): string[] {
  const problems: string[] = [];
  checkOf(parseHcl('tests/a.hcl', text).items[0] as HclBlock, 'tests/a.hcl:1', problems);
  return problems;
}

describe('reading a check block #once', () => {
  it('suggests the key a misspelt one is likely to be', () => {
    expect(problemsOf('check "motd" {\n  file = "/etc/motd"\n  contain = "x"\n}\n')).to.deep.equal([
      'tests/a.hcl:1: check "motd": file takes file, contains, mode, not contain (did you mean "contains"?)',
    ]);
  });

  it('suggests nothing for a key far from every one', () => {
    expect(problemsOf('check "motd" {\n  file = "/etc/motd"\n  owner = "root"\n}\n')).to.deep.equal([
      'tests/a.hcl:1: check "motd": file takes file, contains, mode, not owner',
    ]);
  });
});
