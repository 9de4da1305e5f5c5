// A sensitive file (sensitive = true, or a secret reaching its contents) hides its value only, as
// Puppet's Sensitive does: what the file is (ensure, owner, group, mode) stays in plan, noop and -vv.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('a sensitive file shows its mode and owner, and hides its contents', () => {
  it('in govern plan, in a noop run and in -vv invocation lines', async () => {
    const dir = tempDir('govern-sensitive-');
    const live = writeFile(path.join(dir, 'out', 'token.conf'), 'old-token-value\n');
    fs.chmodSync(live, 0o644);
    const states = path.join(dir, 'states');
    writeFile(path.join(states, 'site.hcl'), `file "${live}" {\n  ensure    = "present"\n  contents  = "new-token-value"\n  sensitive = true\n  owner     = "root"\n  group     = "root"\n  mode      = "0600"\n}\n`);

    const plan = await govern(['plan', states]);
    expect(plan.code, plan.stderr).to.equal(0);
    expect(plan.stdout).to.contain(`file:${live} (site.hcl:1) [sensitive]\n       contents = "<sensitive>"\n       ensure = "present"\n       group = "root"\n       mode = "0600"\n       owner = "root"\n`);

    const noop = await govern(['run', '--noop', '-vv', states]);
    expect(noop.code, noop.stderr).to.equal(0);
    expect(noop.stdout).to.match(/ contents\\?=\\?<sensitive\\?> /);
    expect(noop.stdout).to.contain('mode=0600');
    expect(noop.stdout).to.contain('owner=root');
    expect(noop.stdout).to.match(/mode 0644 -> 0600/);
    for (const text of [plan.stdout, noop.stdout]) {
      expect(text).not.to.contain('new-token-value');
      expect(text).not.to.contain('old-token-value');
    }
    expect(fs.readFileSync(live, 'utf8')).to.equal('old-token-value\n');
  });
});
