// The data a state tree's templates read: hierarchy.hcl at the tree's root rendered with the host's
// facts (as a state file is), parsed, and its levels' data files loaded (src/data/, docs/data.md).
// A tree without hierarchy.hcl has no data.
import fs from 'node:fs';
import path from 'node:path';
import { defaultStateTree, TREE_DIRS, treeRoot, type SearchPaths } from '../config/paths.js';
import { HIERARCHY_FILE } from '../data/hierarchy.js';
import { pulledTree } from '../pull/store.js';
import { loadTreeData } from '../data/load.js';
import type { TreeData } from '../data/lookup.js';
import { parseHcl } from '../hcl/parse.js';
import { UserError } from '../shared/errors.js';
import { moduleSearchDirs } from '../state/modules/module-tree.js';
import { SourceLines } from '../state/source-lines.js';
import { searchPaths, type GivenDirs } from './common-options.js';
import type { FactSources } from '../templates/fact-sources.js';
import { renderWithLines } from '../templates/render.js';
import { readSourceFile } from '../shared/source-file.js';

/**
 * `govern data [KEY...] [PATH]`, `govern modules [NAME] [PATH]`: the last operand is the tree when it
 * is a directory; without one, the default state tree (a pulled tree's checkout when it is one).
 */
export function treeAndOperands(operands: string[]): { root: string; rest: string[] } {
  const last = operands[operands.length - 1];
  const given = last !== undefined && isDirectory(last) ? last : undefined;
  const target = given ?? defaultStateTree();
  const root = treeRoot(pulledTree(target)?.path ?? target);
  if (root === undefined) throw new UserError(`${target}: no such directory`);
  return { root, rest: given === undefined ? operands : operands.slice(0, -1) };
}

function isDirectory(name: string): boolean {
  try {
    return fs.statSync(name).isDirectory();
  } catch {
    return false;
  }
}

/** The search paths of a command for the tree at root: its modules' runners.d/ and facts.d/ right after the tree's own. */
export function treeSearchPaths(o: GivenDirs, root: string | undefined): SearchPaths {
  const paths = searchPaths(o, root);
  if (root === undefined) return paths;
  const modules = moduleSearchDirs(root);
  const after = (kind: 'runners' | 'facts') => {
    // Not there when a GOVERN_*_PATH variable gives the whole search path: then it is left as given.
    const own = paths[kind].indexOf(path.join(root, TREE_DIRS[kind]));
    return own < 0 ? paths[kind] : [...paths[kind].slice(0, own + 1), ...modules[kind], ...paths[kind].slice(own + 1)];
  };
  return { ...paths, runners: after('runners'), facts: after('facts') };
}

export function hierarchyFile(root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  const file = path.join(root, HIERARCHY_FILE);
  return fs.existsSync(file) ? file : undefined;
}

export async function readTreeData(root: string | undefined, sources: FactSources): Promise<TreeData | undefined> {
  const file = hierarchyFile(root);
  if (file === undefined) return undefined;
  const source = readSourceFile(file, root);
  // The levels come from facts alone: hierarchy.hcl cannot read data.
  const [rendered] = await renderWithLines([{ file, source }], { local: sources.local, remote: sources.remote });
  const lines = new SourceLines(file, source, rendered.text, rendered.sourceLines);
  let parsed;
  try {
    parsed = parseHcl(file, rendered.text);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    throw new UserError(e.problems.map((p) => lines.relocate(p)));
  }
  return loadTreeData(root!, parsed, (line) => lines.where(line));
}
