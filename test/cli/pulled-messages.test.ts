// A pulled tree is read from its checkout in the pull cache, but its messages name the file as the
// repository has it, and the commit: `site.hcl:6 (commit abc1234)`, never VAR_DIR/pull/... .
import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { repository } from '../support/preview.js';
import { tempDir } from '../support/tmp.js';

describe('messages about a pulled tree', () => {
  it('name the repository\'s path and the commit, in govern run, plan and data', async () => {
    const repo = repository();
    const commit = repo.commit(
      {
        'hierarchy.hcl': 'levels = [\n  "common",\n  "env/{{fact "hostname"}}",\n]\n',
        'data/common.hcl': 'x = 1\n',
        'site.hcl': 'file "/tmp/govern-pulled-never" {\n  ensure   = "present"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n  contents = "{{data "nope"}}"\n}\n',
      },
      'a tree whose plan fails',
    );
    const dir = tempDir('govern-pulled-');
    const varDir = path.join(dir, 'var');
    const tree = path.join(dir, 'tree');
    const pulled = await govern(['pull', '--var-dir', varDir, repo.dir, tree]);
    expect(pulled.code, pulled.stderr).to.equal(0);
    const at = `(commit ${commit.slice(0, 7)})`;
    const run = await govern(['run', '--var-dir', varDir, tree]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain(`govern: hierarchy.hcl:3 ${at}: env/`);
    expect(run.stderr).to.contain(`govern: site.hcl:6 ${at}: data: no level has the key "nope"`);
    const plan = await govern(['plan', tree]);
    expect(plan.stderr).to.contain(`govern: site.hcl:6 ${at}: data:`);
    const data = await govern(['data', '--explain', 'x', tree]);
    expect(data.stdout).to.contain(`common  data/common.hcl:1 ${at}: 1`);
    for (const text of [run.stderr, plan.stdout, plan.stderr, data.stdout, data.stderr]) expect(text).not.to.contain(path.join(varDir, 'pull'));
  });
});
