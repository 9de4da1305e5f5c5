// Where runners, facts and templates are found: the state tree's own runners.d, facts.d and
// templates.d first, then --X-dir directories, then the user's and the shipped ones; a
// GOVERN_*_PATH variable is the whole path.
import { expect } from 'chai';
import path from 'node:path';
import { composeSearchPaths, defaultSearchPaths } from '../../src/config/paths.js';
import { graphCommand } from '../../src/cli/commands/graph.js';
import { planningOptions } from '../../src/cli/planning-options.js';
import { govern, shRunner } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const shipped = defaultSearchPaths();

describe('search paths', () => {
  it('compose the tree, the flags and the defaults in that order; a variable is the whole path #once', () => {
    const none = { added: [] };
    expect(composeSearchPaths({ facts: { added: ['/a', '/b'] }, runners: none, templates: none }, 'tree')).to.deep.equal({
      facts: ['tree/facts.d', '/a', '/b', ...shipped.facts],
      runners: ['tree/runners.d', ...shipped.runners],
      templates: ['tree/templates.d', ...shipped.templates],
    });
    expect(composeSearchPaths({ facts: { added: ['/a'], path: ['/x', '/y'] }, runners: none, templates: none }, 'tree').facts).to.deep.equal(['/a', '/x', '/y']);
    expect(composeSearchPaths({ facts: none, runners: none, templates: none }, undefined).runners).to.deep.equal(shipped.runners);
  });

  it("use the tree's own runners.d and facts.d, which are not read as state files", async () => {
    const dir = tempDir();
    const states = path.join(dir, 'states');
    const out = path.join(dir, 'ran');
    writeFile(path.join(states, 'site.hcl'), 'local "{{fact "site/name"}}" {}\n');
    writeFile(path.join(states, 'facts.d', 'site', 'name'), 'lab');
    writeFile(path.join(states, 'facts.d', 'broken.hcl'), 'not a state file {');
    writeFile(path.join(states, 'runners.d', 'notes.hcl'), 'neither {');
    shRunner(path.join(states, 'runners.d'), 'local', `echo "$1" > ${out}\necho "message=ran for $1"`);
    const r = await govern(['run', '-v', states]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.match(/^unchanged local:lab  ran for lab/m);
    // A single state file: its directory is the tree.
    const single = await govern(['run', '-v', path.join(states, 'site.hcl')]);
    expect(single.stdout).to.match(/^unchanged local:lab/m);
  });

  it('put the tree first, then --facts-dir, then the defaults, whose facts stay available', async () => {
    const dir = tempDir();
    const states = path.join(dir, 'states');
    const mine = path.join(dir, 'mine');
    writeFile(path.join(states, 'a.hcl'), 'pkg "{{fact "who"}} {{fact "os/name"}} {{fact "os/family"}}" {}\n');
    writeFile(path.join(states, 'facts.d', 'who'), 'tree');
    writeFile(path.join(mine, 'who'), 'flag');
    writeFile(path.join(mine, 'os/name'), 'My Awesome OS');
    shRunner(path.join(states, 'runners.d'), 'pkg', 'echo "message=$1"');
    const r = await govern(['run', '-v', states, '--facts-dir', mine]);
    expect(r.stdout).to.match(/^unchanged pkg:tree My Awesome OS debian {2}tree My Awesome OS debian/m);
    // With GOVERN_FACTS_PATH, the variable is the whole path: no tree, no defaults.
    const whole = await govern(['run', states, '--runners-dir', path.join(states, 'runners.d')], { env: { GOVERN_FACTS_PATH: mine } });
    expect(whole.code).to.equal(1);
    expect(whole.stderr).to.contain(`fact "os/family": no such fact (looked in ${mine})`);
  });

  it('list the directories searched when a fact or a runner is missing', async () => {
    const dir = tempDir();
    const states = path.join(dir, 'states');
    const mine = path.join(dir, 'mine');
    writeFile(path.join(states, 'a.hcl'), 'nosuch "x" {}\n');
    const runner = await govern(['run', states, '--runners-dir', mine]);
    expect(runner.stderr).to.contain(`no runner "nosuch": no executable named nosuch in ${[path.join(states, 'runners.d'), mine, ...shipped.runners].join(', ')}`);
    writeFile(path.join(states, 'a.hcl'), 'pkg "{{fact "nope"}}" {}\n');
    const fact = await govern(['run', states, '--facts-dir', mine]);
    expect(fact.stderr).to.contain(`no such fact (looked in ${[path.join(states, 'facts.d'), mine, ...shipped.facts].join(', ')})`);
  });

  it("render a template given by path with its directory's facts.d and templates.d #once", async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'site', 'motd.tpl'), 'Welcome to {{fact "site/name"}} on {{fact "os/family"}}\n');
    writeFile(path.join(dir, 'site', 'facts.d', 'site', 'name'), 'the lab');
    writeFile(path.join(dir, 'site', 'templates.d', 'banner'), 'from the tree\n');
    expect((await govern(['render', path.join(dir, 'site', 'motd.tpl')])).stdout).to.equal('Welcome to the lab on debian\n');
    const named = await govern(['render', 'banner', '--templates-dir', path.join(dir, 'site', 'templates.d')]);
    expect(named.stdout).to.equal('from the tree\n');
  });

  it('govern graph takes every planning option govern run takes, and plans the same way #once', async () => {
    const graphNames = new Set(graphCommand.options.map((o) => o.name));
    expect(planningOptions.map((o) => o.name).filter((n) => !graphNames.has(n))).to.deep.equal([]);
    const dir = tempDir();
    const runners = path.join(dir, 'runners');
    writeFile(path.join(dir, 'a.hcl'), 'mine "x" {}\nmine "y" {\n  tags = ["web"]\n}\n');
    shRunner(runners, 'mine', 'true');
    const r = await govern(['graph', '--runners-dir', runners, '--tags', 'web', '--no-cache', dir]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.contain('"mine:x" [label="1. mine:x", style=dashed');
    expect(r.stdout).to.contain('"mine:y" [label="2. mine:y"];');
    const missing = await govern(['graph', dir]);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.contain('no runner "mine"');
  });
});
