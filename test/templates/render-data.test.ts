// `govern render TEMPLATE` reads the data of the tree the template belongs to, as `govern run` does:
// a state file at the tree's root, a file template in its templates.d/, and a module's template
// (its tree is the one above modules/, its own templates.d/ searched first, its facts.d/ seen).
import { expect } from 'chai';
import path from 'node:path';
import { govern, ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

function fleetTree(): { root: string; facts: string } {
  const root = tempDir('govern-render-data-');
  writeFile(path.join(root, 'hierarchy.hcl'), 'levels = ["roles/{{fact "role"}}", "common"]\n');
  writeFile(path.join(root, 'data', 'common.hcl'), 'motd = "welcome"\nworkers = 2\nservers = ["a.pool", "b.pool"]\n');
  writeFile(path.join(root, 'data', 'roles', 'web.hcl'), 'workers = 8\n');
  writeFile(path.join(root, 'site.hcl'), 'stuff "x" {\n  motd = {{quote (data "motd")}}\n  workers = {{data "workers"}}\n}\n');
  writeFile(path.join(root, 'templates.d', 'motd.conf'), '{{data "motd"}} ({{data "workers"}} workers)\n');
  writeFile(path.join(root, 'modules', 'web', 'web.hcl'), 'stuff "web" {\n  template = "page.conf"\n}\n');
  writeFile(path.join(root, 'modules', 'web', 'templates.d', 'page.conf'), '{{#each (data "servers")}}server {{this}} {{fact "web_zone"}}\n{{/each}}{{> part}}');
  writeFile(path.join(root, 'modules', 'web', 'templates.d', 'part'), 'port {{port}}\n');
  writeFile(path.join(root, 'modules', 'web', 'facts.d', 'web_zone'), 'zone1\n');
  const facts = tempDir('govern-render-data-facts-');
  writeFile(path.join(facts, 'role'), 'web\n');
  return { root, facts };
}

describe('govern render: the data of the template\'s tree #once', () => {
  it('renders a state file and a file template of a tree with hierarchy.hcl with its data', async () => {
    const t = fleetTree();
    const state = await govern(['render', '--facts-dir', t.facts, path.join(t.root, 'site.hcl')]);
    expect(state.code, state.stderr).to.equal(0);
    expect(state.stdout).to.equal('stuff "x" {\n  motd = "welcome"\n  workers = 8\n}\n');
    const file = await govern(['render', '--facts-dir', t.facts, path.join(t.root, 'templates.d', 'motd.conf')]);
    expect(file.code, file.stderr).to.equal(0);
    expect(file.stdout).to.equal('welcome (8 workers)\n');
  });

  it("renders a module's template with the tree's data, the module's facts.d/ and partials", async () => {
    const t = fleetTree();
    const r = await govern(['render', '--facts-dir', t.facts, '--var', 'port=80', path.join(t.root, 'modules', 'web', 'templates.d', 'page.conf')]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('server a.pool zone1\nserver b.pool zone1\nport 80\n');
  });

  it('a fact the hierarchy needs and the host lacks is the error run gives, at hierarchy.hcl', async () => {
    const t = fleetTree();
    const r = await govern(['render', '--facts-dir', tempDir(), path.join(t.root, 'templates.d', 'motd.conf')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/hierarchy\.hcl:1: fact "role": no such fact/);
  });

  it('renders hierarchy.hcl from facts alone, as run does', async () => {
    const t = fleetTree();
    const r = await govern(['render', '--facts-dir', t.facts, path.join(t.root, 'hierarchy.hcl')]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('levels = ["roles/web", "common"]\n');
    writeFile(path.join(t.root, 'hierarchy.hcl'), 'levels = ["roles/{{data "motd"}}", "common"]\n');
    const withData = await govern(['render', '--facts-dir', t.facts, path.join(t.root, 'hierarchy.hcl')]);
    expect(withData.code).to.equal(1);
    expect(withData.stderr).to.contain('hierarchy.hcl:1: data: no data for "motd"');
  });

  it('renders a file template of examples/fleet as run would', async () => {
    const facts = tempDir('govern-render-data-facts-');
    writeFile(path.join(facts, 'role'), 'web\n');
    writeFile(path.join(facts, 'env'), 'staging\n');
    const r = await govern(['render', '--facts-dir', facts, path.join(ROOT, 'examples', 'fleet', 'layout.hcl')]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.contain('file "/tmp/govern-fleet/etc" {');
  });
});
