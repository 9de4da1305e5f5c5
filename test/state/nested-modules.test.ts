// Modules in modules: a `module` block in a module's state file instantiates another module inside
// the instance, its resources part of the instance's (docs/modules.md, "Modules in modules").
import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { readCalls } from '../support/recording-runner.js';
import { tree, type Tree } from '../support/state-tree.js';

const SITE_WITH_TLS = {
  'modules/site/variables.hcl': 'variable "name" {\n  type = "string"\n}\n',
  'modules/site/site.hcl': 'stuff "site-{{name}}" {\n}\nmodule "{{name}}_tls" {\n  source = "tls"\n  host   = {{quote name}}\n}\n',
  'modules/tls/variables.hcl': 'variable "host" {\n  type = "string"\n}\n',
  'modules/tls/tls.hcl': 'stuff "cert-{{host}}" {\n  host = {{quote host}}\n}\n',
};

/** One job: definition order is the apply order only then. */
function run(t: Tree, extra: string[] = []) {
  return t.run(['--jobs', '1', ...extra]);
}

describe('modules in modules', () => {
  it('an instance declares instances of other modules; module:NAME covers them too', async () => {
    const t = tree({
      ...SITE_WITH_TLS,
      'sites.hcl': 'module "shop" {\n  source = "site"\n  name   = "shop"\n}\nmodule "blog" {\n  source = "site"\n  name   = "blog"\n}\nstuff "after-shop" {\n  after = ["module:shop"]\n}\n',
    });
    const r = await run(t);
    expect(r.code, r.stderr).to.equal(0);
    const calls = readCalls(t.log).map((c) => [c.name, ...c.args]);
    expect(calls).to.deep.include(['cert-shop', 'host=shop']);
    expect(calls).to.deep.include(['cert-blog', 'host=blog']);
    const names = calls.map((c) => c[0]);
    // after = module:shop orders after shop's own resource and after the instance shop declared.
    expect(names.indexOf('after-shop')).to.be.greaterThan(names.indexOf('site-shop'));
    expect(names.indexOf('after-shop')).to.be.greaterThan(names.indexOf('cert-shop'));
    const graph = await govern(['graph', '--runners-dir', t.runners, '--facts-dir', t.facts, t.states]);
    expect(graph.stdout).to.contain('label="module shop_tls (tls)"');
  });

  it('a loop of modules is refused at the block, naming the chain, and nothing is applied', async () => {
    const t = tree({
      'modules/a/a.hcl': 'stuff "a" {\n}\nmodule "b1" {\n  source = "b"\n}\n',
      'modules/b/b.hcl': 'module "a1" {\n  source = "a"\n}\n',
      'site.hcl': 'module "top" {\n  source = "a"\n}\n',
    });
    const r = await run(t);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/modules/b/b.hcl:1: module "a1": module "a" would instantiate itself: top (a) > b1 (b) > a1 (a)`);
    expect(readCalls(t.log)).to.deep.equal([]);
  });

  it('modules nested deeper than the limit are refused, naming the chain', async () => {
    const files: Record<string, string> = { 'site.hcl': 'module "i0" {\n  source = "m0"\n}\n' };
    for (let i = 0; i < 9; i++) files[`modules/m${i}/m.hcl`] = `stuff "s${i}" {\n}\n` + (i < 8 ? `module "i${i + 1}" {\n  source = "m${i + 1}"\n}\n` : '');
    const t = tree(files);
    const r = await run(t);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${path.join(t.states, 'modules/m7/m.hcl')}:3: module "i8": modules nested more than 8 deep: i0 (m0) > i1 (m1) > i2 (m2) > i3 (m3) > i4 (m4) > i5 (m5) > i6 (m6) > i7 (m7) > i8 (m8)`);
    expect(readCalls(t.log)).to.deep.equal([]);
  });

  it('two nested instances declaring one resource: the error names each instance by its path', async () => {
    const t = tree({
      ...SITE_WITH_TLS,
      'modules/tls/tls.hcl': 'stuff "cert" {\n}\n',
      'sites.hcl': 'module "shop" {\n  source = "site"\n  name   = "shop"\n}\nmodule "blog" {\n  source = "site"\n  name   = "blog"\n}\n',
    });
    const r = await run(t);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/modules/tls/tls.hcl:1: stuff:cert is declared twice by module "blog > blog_tls" (first at ${t.states}/modules/tls/tls.hcl:1 by module "shop > shop_tls")`);
    expect(readCalls(t.log)).to.deep.equal([]);
  });

  it('two instances of one name inside modules: the error says which module declared each', async () => {
    const t = tree({
      ...SITE_WITH_TLS,
      'modules/site/site.hcl': 'module "tls" {\n  source = "tls"\n  host   = {{quote name}}\n}\n',
      'sites.hcl': 'module "shop" {\n  source = "site"\n  name   = "shop"\n}\nmodule "blog" {\n  source = "site"\n  name   = "blog"\n}\n',
    });
    const r = await run(t);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/modules/site/site.hcl:1: module "tls" in module "blog" is instantiated twice (first at ${t.states}/modules/site/site.hcl:1 in module "shop"): give each instance its own name`);
  });
});
