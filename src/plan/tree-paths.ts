// Which tree a command reads, and where it searches for runners, facts and templates: the
// directories given, the tree's own, then its modules', then the defaults (the data itself:
// src/plan/data.ts).
import fs from 'node:fs';
import path from 'node:path';
import { composeSearchPaths, defaultStateTree, TREE_DIRS, treeRoot, type DirList, type SearchPaths } from '../config/paths.js';
import { pulledTree } from '../pull/store.js';
import { UserError } from '../shared/errors.js';
import { moduleSearchDirs } from '../state/modules/module-tree.js';

/** The directories given on the command line (`--facts-dir`...) or by the GOVERN_*_PATH variables. */
export interface GivenDirs {
  factsDir?: DirList;
  templatesDir?: DirList;
  runnersDir?: DirList;
}

/** The search paths of a command, for the state tree at `tree` (if any). */
export function searchPaths(o: GivenDirs, tree: string | undefined): SearchPaths {
  const none: DirList = { added: [] };
  return composeSearchPaths({ facts: o.factsDir ?? none, templates: o.templatesDir ?? none, runners: o.runnersDir ?? none }, tree);
}

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
