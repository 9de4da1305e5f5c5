import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { readCalls } from '../support/recording-runner.js';
import { tree, type Tree } from '../support/state-tree.js';
import { writeFile } from '../support/tmp.js';

const SITE_MODULE = {
  'modules/site/variables.hcl': [
    'variable "server_name" {',
    '  type        = "string"',
    '  pattern     = "[a-z0-9.-]+"',
    '  description = "the name the site answers to"',
    '}',
    'variable "port" {',
    '  type    = "number"',
    '  default = 80',
    '}',
    'variable "tls" {',
    '  type    = "string"',
    '  values  = ["off", "on"]',
    '  default = "off"',
    '}',
    'variable "upstreams" {',
    '  type    = "list"',
    '  default = []',
    '}',
    '',
  ].join('\n'),
  'modules/site/site.hcl': [
    'stuff "site-{{server_name}}" {',
    '  port = {{port}}',
    '  tls = {{quote tls}}',
    '  upstreams = [{{#each upstreams}}{{quote this}}, {{/each}}]',
    '}',
    'stuff "conf-{{server_name}}" {',
    '  after = ["stuff:site-{{server_name}}"]',
    '}',
    '',
  ].join('\n'),
};

const ROLES = {
  'hierarchy.hcl': 'levels = ["hosts/{{fact "hostname"}}", "roles/{{fact "role"}}", "common"]\n',
  'data/common.hcl': 'modules = ["ntp", "motd"]\nsite = { port = 81 }\n',
  'data/roles/web.hcl': 'modules = ["ntp", "nginx"]\n',
  'data/roles/db.yaml': 'modules: [postgres]\n',
  'modules/ntp/ntp.hcl': 'stuff "ntp" {\n}\n',
  'modules/motd/motd.hcl': 'stuff "motd" {\n}\n',
  'modules/nginx/nginx.hcl': 'stuff "nginx" {\n}\n',
  'modules/postgres/postgres.hcl': 'stuff "postgres" {\n}\n',
};

/**
 * A tree run with one job: these tests check definition order, which is the apply order only then
 * (the suite also runs with GOVERN_JOBS=4, where independent resources apply in any order).
 */
function withFacts(files: Record<string, string>, facts: Record<string, string>): Tree {
  const t = tree(files);
  for (const [name, value] of Object.entries(facts)) writeFile(path.join(t.facts, name), value);
  return { ...t, run: (extra = [], env = {}) => t.run(['--jobs', '1', ...extra], env) };
}

describe('modules', () => {
  it('two instances of one module, with parameters given, looked up in data, and defaulted', async () => {
    const t = withFacts(
      {
        ...SITE_MODULE,
        ...ROLES,
        'site.hcl': 'module "shop" {\n  source = "site"\n  server_name = "shop.example.org"\n  port = 8080\n  tls = "on"\n  upstreams = ["a:1", "b:2"]\n}\nmodule "blog" {\n  source = "site"\n  server_name = "blog.example.org"\n}\n',
        'data/roles/web.hcl': 'modules = []\n',
        'data/common.hcl': 'site = { port = 81 }\n',
      },
      { hostname: 'web1', role: 'web' },
    );
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    expect(readCalls(t.log).map((c) => [c.name, ...c.args])).to.deep.equal([
      ['site-shop.example.org', 'port=8080', 'tls=on', 'upstreams=a:1', 'upstreams=b:2'],
      ['conf-shop.example.org'],
      ['site-blog.example.org', 'port=81', 'tls=off'],
      ['conf-blog.example.org'],
    ]);
    const explain = await govern(['data', '--explain', '--facts-dir', t.facts, 'site/port', t.states]);
    expect(explain.stdout).to.contain(`  3. common  ${t.states}/data/common.hcl:1: 81  <- answers`);
  });

  it('roles from data: each host applies the modules its levels list, each once', async () => {
    const web = withFacts({ ...ROLES, 'base.hcl': 'stuff "base" {\n}\n' }, { hostname: 'web1', role: 'web' });
    expect((await web.run()).code).to.equal(0);
    expect(readCalls(web.log).map((c) => c.name)).to.deep.equal(['base', 'ntp', 'nginx', 'motd']);
    const db = withFacts({ ...ROLES, 'base.hcl': 'stuff "base" {\n}\n' }, { hostname: 'db1', role: 'db' });
    expect((await db.run()).code).to.equal(0);
    expect(readCalls(db.log).map((c) => c.name)).to.deep.equal(['base', 'postgres', 'ntp', 'motd']);
  });

  it('reports every problem of the instances at once, at the instance or the data level, and applies nothing', async () => {
    const t = withFacts(
      {
        ...SITE_MODULE,
        'hierarchy.hcl': 'levels = ["common"]\n',
        'data/common.yaml': 'modules: [ntpd]\nsite:\n  port: eighty\n',
        'modules/ntp/ntp.hcl': 'stuff "ntp" {\n}\n',
        'site.hcl': [
          'stuff "first" {',
          '}',
          'module "a" {',
          '  source = "site"',
          '  sever_name = "a"',
          '}',
          'module "b" {',
          '  source = "site"',
          '  server_name = "B!"',
          '  tls = "maybe"',
          '  upstreams = "x"',
          '}',
          'module "c" {',
          '  source = "sites"',
          '}',
          '',
        ].join('\n'),
      },
      {},
    );
    const r = await t.run();
    expect(r.code).to.equal(1);
    const s = t.states;
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('govern: /'));
    expect(lines).to.have.members([
      `govern: ${s}/data/common.yaml:1: module "ntpd": "ntpd" is not a module of this tree (did you mean "ntp"?) (the tree's modules: ntp, site)`,
      `govern: ${s}/site.hcl:5: module "a" (site): unknown parameter "sever_name" (did you mean "server_name"?) (its parameters: server_name, port, tls, upstreams)`,
      `govern: ${s}/site.hcl:3: module "a" (site): the parameter "server_name" is required: set it here, or in data as "site/server_name"`,
      `govern: ${s}/data/common.yaml:3: module "a" (site): port (from data "site/port" at level "common"): "eighty" is not a number`,
      `govern: ${s}/site.hcl:9: module "b" (site): server_name: "B!" does not match the pattern "[a-z0-9.-]+"`,
      `govern: ${s}/data/common.yaml:3: module "b" (site): port (from data "site/port" at level "common"): "eighty" is not a number`,
      `govern: ${s}/site.hcl:10: module "b" (site): tls: "maybe" is not one of "off", "on"`,
      `govern: ${s}/site.hcl:11: module "b" (site): upstreams: "x" is not a list`,
      `govern: ${s}/site.hcl:13: module "c": "sites" is not a module of this tree (did you mean "site"?) (the tree's modules: ntp, site)`,
    ]);
    expect(readCalls(t.log)).to.deep.equal([]);
  });

  it('orders after, and notifies, a whole instance', async () => {
    const t = withFacts(
      {
        ...SITE_MODULE,
        'site.hcl': [
          'stuff "last" {',
          '  after = ["module:shop"]',
          '}',
          'module "shop" {',
          '  source = "site"',
          '  server_name = "shop"',
          '}',
          'stuff "config" {',
          '  notify = ["module:shop:reload"]',
          '  changed = true',
          '}',
          '',
        ].join('\n'),
      },
      {},
    );
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    const calls = readCalls(t.log).map((c) => `${c.name}${c.signal ? `!${c.signal}` : ''}`);
    expect(calls).to.deep.equal(['config', 'site-shop', 'conf-shop', 'last', 'site-shop!reload', 'conf-shop!reload']);
    const unknown = withFacts({ ...SITE_MODULE, 'site.hcl': 'stuff "x" {\n  after = ["module:shopp"]\n}\nmodule "shop" {\n  source = "site"\n  server_name = "shop"\n}\n' }, {});
    const u = await unknown.run();
    expect(u.stderr).to.contain(`${unknown.states}/site.hcl:2: stuff:x: after "module:shopp": no module instance "shopp" declares resources in this tree (did you mean "shop"?)`);
  });

  it('two instances declaring the same resource: the duplicate names both', async () => {
    const t = withFacts(
      {
        'modules/pkgs/variables.hcl': 'variable "extra" {\n  type = "string"\n}\n',
        'modules/pkgs/pkgs.hcl': 'stuff "common-tools" {\n}\nstuff "{{extra}}" {\n}\n',
        'site.hcl': 'module "one" {\n  source = "pkgs"\n  extra = "a"\n}\nmodule "two" {\n  source = "pkgs"\n  extra = "b"\n}\n',
      },
      {},
    );
    const r = await t.run();
    expect(r.code).to.equal(1);
    const file = `${t.states}/modules/pkgs/pkgs.hcl`;
    expect(r.stderr).to.contain(`${file}:1: stuff:common-tools is declared twice by module "two" (first at ${file}:1 by module "one")`);
  });

  it('govern graph draws each instance as a cluster', async () => {
    const t = withFacts({ ...SITE_MODULE, 'site.hcl': 'module "shop" {\n  source = "site"\n  server_name = "shop"\n}\nstuff "alone" {\n}\n' }, {});
    const r = await govern(['graph', '--runners-dir', t.runners, '--facts-dir', t.facts, t.states]);
    expect(r.stdout).to.contain('  subgraph "cluster_0" {\n    label="module shop (site)";\n    "stuff:site-shop" [label="2. stuff:site-shop"];\n    "stuff:conf-shop" [label="3. stuff:conf-shop"];\n  }\n');
    expect(r.stdout).to.contain('  "stuff:alone" [label="1. stuff:alone"];\n');
  });

  it("a module's runners.d and facts.d are searched after the tree's own", async () => {
    const t = withFacts(
      {
        'modules/tea/tea.hcl': 'brew "{{fact "tea/flavor"}}" {\n}\n',
        'modules/tea/facts.d/tea/flavor': 'green',
        'site.hcl': 'module "tea" {\n  source = "tea"\n}\n',
      },
      {},
    );
    const log = path.join(t.dir, 'brew.log');
    writeFile(path.join(t.states, 'modules', 'tea', 'runners.d', 'brew'), `#!/bin/sh\n[ "\${GOVERN_DESCRIBE:-}" = 1 ] && exit 0\necho "$1" >> ${log}\n`, 0o755);
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    expect(fs.readFileSync(log, 'utf8')).to.equal('green\n');
  });

  it('a parameter from a sensitive fact makes the resources it reaches sensitive', async () => {
    const t = withFacts(
      {
        'modules/vault/variables.hcl': 'variable "token" {\n  type = "string"\n}\n',
        'modules/vault/vault.hcl': 'stuff "vault" {\n  token = {{quote token}}\n}\nstuff "plain" {\n}\n',
        'site.hcl': 'module "vault" {\n  source = "vault"\n  token  = {{quote (fact "secret/token")}}\n}\n',
      },
      { 'secret/token': 'TOKEN-m0dule-secret' },
    );
    const r = await t.run(['-vv']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout + r.stderr).not.to.contain('TOKEN-m0dule-secret');
    expect(r.stdout).to.match(/running .*stuff vault token\\=\\<sensitive\\>/);
  });

  it('refuses a variable outside a module, a module instantiating itself, and a variable in a templated file', async () => {
    const t = withFacts(
      {
        'modules/m/a.hcl': 'module "inner" {\n  source = "m"\n}\n',
        'modules/m/b.hcl': 'stuff "{{#if true}}b{{/if}}" {\n}\nvariable "late" {\n  type = "string"\n}\n',
        'site.hcl': 'variable "x" {\n  type = "string"\n}\nmodule "m" {\n  source = "m"\n}\n',
      },
      {},
    );
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/site.hcl:1: variable "x": a variable declares a parameter of a module, in a file under modules/NAME/ (docs/modules.md)`);
    expect(r.stderr).to.contain(`${t.states}/modules/m/a.hcl:1: module "inner": module "m" would instantiate itself: m (m) > inner (m)`);
    expect(r.stderr).to.contain(`${t.states}/modules/m/b.hcl:3: variable "late": declare a module's parameters in a file without {{ }}`);
  });

  it('a variable in a templated file that uses it: the rule, once, at the block, and no "unknown variable" for its uses', async () => {
    const t = withFacts(
      {
        'modules/m/m.hcl': 'variable "port" {\n  type = "number"\n}\nstuff "a-{{port}}" {\n  p = "{{port}}"\n}\n',
        'site.hcl': 'module "m" {\n  source = "m"\n  port   = 8\n}\n',
      },
      {},
    );
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr.split(`${t.states}/modules/m/m.hcl:1: variable "port": declare a module's parameters in a file without {{ }} (such as variables.hcl): they are read before the module renders\n`)).to.have.length(2);
    expect(r.stderr).to.not.match(/unknown variable/);
    // So the module declares no parameter: the instance's is unknown, which is so.
    expect(r.stderr).to.contain(`${t.states}/site.hcl:3: module "m": unknown parameter "port" (it has no parameters)`);
  });
});
