// `govern facts PATH`: a state tree's own facts.d/ comes first, as govern run and render see it.
import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('govern facts PATH #once', () => {
  it("reads the tree's facts.d first, given the tree or one of its files, with or without names", async () => {
    const tree = tempDir('govern-facts-tree-');
    writeFile(path.join(tree, 'facts.d', 'os', 'name'), 'TreeOS\n');
    writeFile(path.join(tree, 'facts.d', 'tree_only'), 'here\n');
    const file = writeFile(path.join(tree, 'site.hcl'), '');

    const named = await govern(['facts', tree, 'os/name', 'tree_only']);
    expect(named.code, named.stderr).to.equal(0);
    expect(named.stdout).to.equal('os/name\tTreeOS\ntree_only\there\n');

    const all = await govern(['facts', file]);
    expect(all.code, all.stderr).to.equal(0);
    expect(all.stdout).to.include('tree_only\there\n');
    expect(all.stdout).to.include('os/family\t'); // the shipped facts are still there

    const without = await govern(['facts', 'os/name']);
    expect(without.stdout).to.not.include('TreeOS');
  });

  it("reads the facts.d/ of the tree's modules after the tree's own, as govern run does", async () => {
    const tree = tempDir('govern-facts-tree-');
    writeFile(path.join(tree, 'facts.d', 'both'), 'tree\n');
    writeFile(path.join(tree, 'modules', 'web', 'facts.d', 'both'), 'module\n');
    writeFile(path.join(tree, 'modules', 'web', 'facts.d', 'web_zone'), 'zone1\n');
    writeFile(path.join(tree, 'modules', 'web', 'web.hcl'), '');
    const r = await govern(['facts', tree, 'both', 'web_zone']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('both\ttree\nweb_zone\tzone1\n');
  });
});
