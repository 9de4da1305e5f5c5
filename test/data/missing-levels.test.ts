import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { readCalls } from '../support/recording-runner.js';
import { tree } from '../support/state-tree.js';
import { writeFile } from '../support/tmp.js';

// A misspelt role fact, a renamed role file or a level dropped from hierarchy.hcl: the role's data
// would go silently (docs/data.md, "hierarchy.hcl"); a typo in a module's data key likewise.
const FILES = {
  'site.hcl': '# every resource comes from the modules the data lists\n',
  'data/common.hcl': 'modules = ["base"]\n',
  'data/roles/web.yaml': 'modules: [web]\nweb:\n  server_name: shop.example.org\n',
  'data/roles/db.hcl': 'modules = []\n',
  'modules/base/base.hcl': 'stuff "base" {\n}\n',
  'modules/web/variables.hcl': 'variable "server_name" {\n  type = "string"\n}\nvariable "port" {\n  type = "number"\n  default = 80\n}\n',
  'modules/web/web.hcl': 'stuff "site-{{server_name}}" {\n  port = {{port}}\n}\n',
};

function hostTree(hierarchy: string, facts: Record<string, string>, files: Record<string, string> = {}) {
  const t = tree({ ...FILES, 'hierarchy.hcl': hierarchy, ...files });
  for (const [name, value] of Object.entries(facts)) writeFile(path.join(t.facts, name), value);
  return t;
}

describe('levels with no file, and data keys no module reads', () => {
  const FROM_FACTS = 'levels = [\n  "roles/{{fact "role"}}",\n  "common",\n]\n';

  it('a level named from a fact with no file is a warning in the run and in govern data --explain, with did-you-mean', async () => {
    const t = hostTree(FROM_FACTS, { role: 'wbe' });
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    const warning = `${t.states}/hierarchy.hcl:2: roles/wbe: no file (data/roles/wbe.hcl, .json, .yaml or .yml) (did you mean "roles/web"?)`;
    expect(r.stderr).to.contain(`govern: ${warning}`);
    expect(readCalls(t.log).map((c) => c.name)).to.deep.equal(['base']);
    const explain = await govern(['data', '--explain', '--facts-dir', t.facts, 'modules', t.states]);
    expect(explain.stderr).to.contain(warning);
    expect(explain.stdout).to.contain('1. roles/wbe  no data file, skipped');
  });

  it('a level written literally, or marked optional, has no warning when it has no file', async () => {
    const t = hostTree('levels = [{ name = "hosts/{{fact "hostname"}}", optional = true }, "roles/{{fact "role"}}", "env/prod", "common"]\n', { hostname: 'web1', role: 'web' });
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).not.to.contain('no file');
    expect(readCalls(t.log).map((c) => c.name).sort()).to.deep.equal(['base', 'site-shop.example.org']);
  });

  it('a required level with no file is an error at its line of hierarchy.hcl, and nothing is applied', async () => {
    const t = hostTree('levels = [\n  { name = "roles/{{fact "role"}}", required = true },\n  "common",\n]\n', { role: 'wbe' });
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/hierarchy.hcl:2: level "roles/wbe" is required, and it has no file (data/roles/wbe.hcl, .json, .yaml or .yml) (did you mean "roles/web"?)`);
    expect(readCalls(t.log)).to.deep.equal([]);
    const renamed = hostTree('levels = [{ name = "roles/{{fact "role"}}", required = true }, "common"]\n', { role: 'db' }, { 'data/roles/db.hcl': '' });
    expect((await renamed.run()).code).to.equal(0);
  });

  it('refuses a level entry it cannot read, every problem at once', async () => {
    const t = hostTree('levels = [{ name = "common", requred = true }, { name = "x", required = "yes" }, { name = "y", required = true, optional = true }, 3]\n', {});
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('level "common": unknown key "requred" (did you mean "required"?)');
    expect(r.stderr).to.contain('level "x": required is true or false');
    expect(r.stderr).to.contain('level "y": required and optional at once: choose one');
    expect(r.stderr).to.contain('a level that must have a file is written { name = "roles/{{fact "role"}}", required = true }');
  });

  it('a data key under a module\'s name that is none of its parameters is a warning with did-you-mean', async () => {
    const t = hostTree(FROM_FACTS, { role: 'web' }, {
      'data/roles/web.yaml': 'modules: [web]\nweb:\n  server_name: shop.example.org\n  prot: 8080\n',
      'data/common.hcl': 'modules = ["base"]\nweb = { servr_name = "x" }\n',
    });
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.contain(`govern: ${t.states}/data/roles/web.yaml:2: data "web/prot" is no parameter of module "web" (did you mean "port"?) (its parameters: server_name, port)`);
    expect(r.stderr).to.contain(`govern: ${t.states}/data/common.hcl:2: data "web/servr_name" is no parameter of module "web" (did you mean "server_name"?)`);
    expect(r.stderr.match(/servr_name/g)).to.have.length(1);
    const modules = await govern(['modules', '--facts-dir', t.facts, 'web', t.states]);
    expect(modules.stderr).to.contain('data "web/prot" is no parameter of module "web"');
  });
});
