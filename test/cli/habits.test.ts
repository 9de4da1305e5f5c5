// Words a Puppet or Ansible user types first, answered with govern's own: `require` (after),
// `ensure = "started"` (running), `--diff` (already the default). Refused before anything runs.
import { expect } from 'chai';
import path from 'node:path';
import { govern, RUNNERS_DIR } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('habits from other tools', () => {
  it('require suggests after, and started suggests running, with the file and line', async () => {
    const dir = tempDir('govern-habits-');
    writeFile(path.join(dir, 'a.hcl'), 'service "govern-habit" {\n  ensure  = "started"\n  require = ["pkg:x"]\n}\n');
    const r = await govern(['run', '--runners-dir', RUNNERS_DIR, dir]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('a.hcl:2: service:govern-habit: ensure "started" is not one of running, stopped (did you mean "running"? govern says running where other tools say started)');
    expect(r.stderr).to.include('a.hcl:3: service:govern-habit: unknown key "require" (did you mean "after"? govern orders a resource after others with after = ["pkg:nginx"], Puppet\'s require)');
  });

  it('--diff says diffs are the default', async () => {
    const r = await govern(['run', '--diff', tempDir('govern-habits-')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('govern: unknown option --diff: it is the default (--no-diff turns it off); see govern run --help');
  });
});
