// Which tree an editor's file belongs to (src/lsp/trees.ts, docs/editors.md): the nearest directory
// with a tree's places, a module's own templates.d/ not counting, within the workspace folder.
import { expect } from 'chai';
import path from 'node:path';
import { Trees } from '../../src/lsp/trees.js';
import type { PlanSettings } from '../../src/plan/settings.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('the tree of an editor\'s file #once', () => {
  const settings = (root: string) => ({ target: root, facts: {} }) as unknown as PlanSettings;

  it('is the nearest directory with hierarchy.hcl, modules/ or a search directory, a module\'s files the tree above modules/', () => {
    const work = tempDir();
    const tree = path.join(work, 'states');
    writeFile(path.join(tree, 'hierarchy.hcl'), 'levels = []\n');
    writeFile(path.join(tree, 'modules', 'web', 'templates.d', 'site.conf'), 'x\n');
    const trees = new Trees(settings, [work]);
    expect(trees.of(writeFile(path.join(tree, 'site.hcl'), '')).root).to.equal(tree);
    expect(trees.of(writeFile(path.join(tree, 'roles', 'web.hcl'), '')).root).to.equal(tree);
    expect(trees.of(writeFile(path.join(tree, 'modules', 'web', 'site.hcl'), '')).root).to.equal(tree);
    expect(trees.of(writeFile(path.join(tree, 'data', 'common.hcl'), '')).root).to.equal(tree);
    expect(trees.of(path.join(tree, 'site.hcl')), 'one tree, one object').to.equal(trees.of(path.join(tree, 'roles', 'web.hcl')));
  });

  it('is the file\'s own directory without one, or the directory above its modules/ or data/', () => {
    const work = tempDir();
    const trees = new Trees(settings, [work]);
    expect(trees.of(writeFile(path.join(work, 'plain', 'site.hcl'), '')).root).to.equal(path.join(work, 'plain'));
    expect(trees.of(writeFile(path.join(work, 'bare', 'modules', 'ntp', 'ntp.hcl'), '')).root).to.equal(path.join(work, 'bare'));
    expect(trees.of(writeFile(path.join(work, 'bare', 'data', 'roles', 'web.hcl'), '')).root).to.equal(path.join(work, 'bare'));
  });
});
