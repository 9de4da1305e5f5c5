// Where govern looks for runners, facts and templates (README, "Paths"). Run from a checkout, the
// checkout's runners/, facts.d/ and templates.d/ are the shipped directories.
import fs from 'node:fs';
import path from 'node:path';

export interface SearchPaths {
  /** Highest priority first. */
  runners: string[];
  facts: string[];
  templates: string[];
}

export type SearchKind = keyof SearchPaths;

/** The directories a state tree may carry at its root; they are not scanned for state files. */
export const TREE_DIRS: Record<SearchKind, string> = { runners: 'runners.d', facts: 'facts.d', templates: 'templates.d' };

/** Directories given for one search path. */
export interface DirList {
  /** From --runners-dir and the like, in the order given: added in front of the defaults. */
  added: string[];
  /** From GOVERN_RUNNERS_PATH and the like: the whole search path instead of the tree's and the defaults. */
  path?: string[];
}

/** The tree govern runs from: a checkout, or PREFIX/lib/govern when installed. */
export const GOVERN_ROOT = path.resolve(__dirname, '..', '..', '..');

function isCheckout(root: string): boolean {
  return fs.existsSync(path.join(root, 'runners')) && fs.existsSync(path.join(root, 'src'));
}

/** The user's directories, then the shipped ones. */
export function defaultSearchPaths(root = GOVERN_ROOT): SearchPaths {
  const checkout = isCheckout(root);
  const etc = configDir(root);
  return {
    runners: [path.join(etc, 'runners.d'), path.join(root, checkout ? 'runners' : 'bin')],
    facts: [path.join(etc, 'facts.d'), path.join(root, 'facts.d')],
    templates: checkout ? [path.join(root, 'templates.d')] : [path.join(etc, 'templates.d')],
  };
}

/** govern's configuration directory: PREFIX/etc/govern when installed (root is PREFIX/lib/govern); from a checkout, the default installation's. */
export function configDir(root = GOVERN_ROOT): string {
  return isCheckout(root) ? '/usr/local/etc/govern' : path.resolve(root, '..', '..', 'etc', 'govern');
}

/** The state tree `govern run` and `govern graph` apply when given no PATH: the configuration directory's `states`. */
export function defaultStateTree(root = GOVERN_ROOT): string {
  return path.join(configDir(root), 'states');
}

/**
 * Where the last run is recorded and pulled trees are kept: /var/lib/govern whatever the prefix
 * (variable data belongs in /var for /usr/local installations too).
 */
export const DEFAULT_VAR_DIR = '/var/lib/govern';

/**
 * The root of the state tree a command was given: the directory itself, or a single file's
 * directory. Undefined when there is none (the path does not exist: the command reports it).
 */
export function treeRoot(target: string): string | undefined {
  try {
    return fs.statSync(target).isDirectory() ? target : path.dirname(target);
  } catch {
    return undefined;
  }
}

/**
 * The search order, first wins: the tree's own directory, the directories given with the flags,
 * then the defaults (the user's, then the shipped one). A GOVERN_*_PATH variable is the whole
 * search path in place of the tree's and the defaults; the flags still come first.
 */
export function composeSearchPaths(given: Record<SearchKind, DirList>, tree: string | undefined, defaults: SearchPaths = defaultSearchPaths()): SearchPaths {
  const compose = (kind: SearchKind): string[] => {
    const { added, path: whole } = given[kind];
    return [...(whole ? [] : tree !== undefined ? [path.join(tree, TREE_DIRS[kind])] : []), ...added, ...(whole ?? defaults[kind])];
  };
  return { runners: compose('runners'), facts: compose('facts'), templates: compose('templates') };
}

/** The govern executable runners are told about (GOVERN): the one the user invoked. */
export function governExecutable(): string {
  const invoked = process.argv[1];
  return invoked ? path.resolve(invoked) : path.join(GOVERN_ROOT, 'bin', 'govern');
}

/** govern's version, from the package.json of the tree it runs from. */
export function governVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(path.join(GOVERN_ROOT, 'package.json')) as { version: string }).version;
}
