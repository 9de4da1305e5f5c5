// A check block read: a misspelt key of its kind is named with the key it is likely to be, at its
// own line; a problem of the whole block at the block's.
import { expect } from 'chai';
import { checkOf, type CheckProblem } from '../../src/checks/kinds.js';
import { parseHcl } from '../../src/hcl/parse.js';
import type { HclBlock } from '../../src/hcl/syntax.js';

function problemsOf(text: string): string[] {
  const problems: CheckProblem[] = [];
  checkOf(parseHcl('tests/a.hcl', text).items[0] as HclBlock, 'tests/a.hcl:1', problems);
  return problems.map((p) => `tests/a.hcl:${p.line}: ${p.message}`);
}

describe('reading a check block #once', () => {
  it('suggests the key a misspelt one is likely to be', () => {
    expect(problemsOf('check "motd" {\n  file = "/etc/motd"\n  contain = "x"\n}\n')).to.deep.equal([
      'tests/a.hcl:3: check "motd": file takes file, contains, mode, not contain (did you mean "contains"?)',
    ]);
  });

  it('suggests nothing for a key far from every one', () => {
    expect(problemsOf('check "motd" {\n  file = "/etc/motd"\n  owner = "root"\n}\n')).to.deep.equal([
      'tests/a.hcl:3: check "motd": file takes file, contains, mode, not owner',
    ]);
  });

  it("says a key's problem at the key's line, the block's at the block's", () => {
    expect(problemsOf('check "web" {\n  url = "ftp://x"\n\n  status = 99\n}\n')).to.deep.equal([
      'tests/a.hcl:2: check "web": url is an http:// or https:// address',
      'tests/a.hcl:4: check "web": status is an HTTP status, not 99',
    ]);
    expect(problemsOf('check "none" {\n  owner = "root"\n}\n')).to.deep.equal(['tests/a.hcl:1: check "none": says nothing to check: give one of command, file, port, service, package, url']);
  });
});
