// Where govern looks for runners, facts and templates (README, "Paths"). The default directories
// follow the prefix govern was installed with (docs/packaging.md); run from a checkout, the
// checkout's runners/, facts.d/ and templates.d/ are the shipped directories.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';

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

/** The directories an installation (or a checkout) provides, before any option or variable. */
export interface DefaultDirs {
  shippedRunners: string;
  /** The user's runners, which override shipped ones of the same name. */
  userRunners: string;
  shippedFacts: string;
  userFacts: string;
  /** The user's templates, which `make install` seeds with the example templates. */
  templates: string;
  /** The state tree `govern run` applies when given no PATH. */
  states: string;
}

/** Where an installation put things: what `make install` records in LIBDIR/layout.json. */
export interface InstallLayout {
  /** PREFIX/lib/govern: the code, the shipped runners (bin/) and facts (facts.d/). */
  libDir: string;
  /** PREFIX/etc for `make install`, /etc for the Debian package: govern's configuration is SYSCONFDIR/govern. */
  sysconfdir: string;
}

/**
 * The tree govern runs from: a checkout, or PREFIX/lib/govern when installed. This module is
 * dist/src/config/paths.js, or part of a bundle in dist/bundle/ (scripts/bundle.js).
 */
export const GOVERN_ROOT = path.basename(__dirname) === 'bundle' ? path.resolve(__dirname, '..', '..') : path.resolve(__dirname, '..', '..', '..');

/** The file `make install` writes into LIBDIR: `{"sysconfdir": "/etc"}`. */
export const LAYOUT_FILE = 'layout.json';

/** The configuration directory of the default installation (`make install` with PREFIX=/usr/local). */
const DEFAULT_SYSCONFDIR = '/usr/local/etc';

function isCheckout(root: string): boolean {
  return fs.existsSync(path.join(root, 'runners')) && fs.existsSync(path.join(root, 'src'));
}

/** The default directories of an installation with this layout. */
export function installedDirs(layout: InstallLayout): DefaultDirs {
  const etc = path.join(layout.sysconfdir, 'govern');
  return {
    shippedRunners: path.join(layout.libDir, 'bin'),
    userRunners: path.join(etc, 'runners.d'),
    shippedFacts: path.join(layout.libDir, 'facts.d'),
    userFacts: path.join(etc, 'facts.d'),
    templates: path.join(etc, 'templates.d'),
    states: path.join(etc, 'states'),
  };
}

/**
 * The default directories of the govern running from root. A checkout ships its own runners, facts
 * and templates and takes the user's runners and facts from the default installation's place.
 */
export function defaultDirs(root = GOVERN_ROOT): DefaultDirs {
  if (isCheckout(root)) {
    const user = installedDirs({ libDir: root, sysconfdir: DEFAULT_SYSCONFDIR });
    return { ...user, shippedRunners: path.join(root, 'runners'), shippedFacts: path.join(root, 'facts.d'), templates: path.join(root, 'templates.d') };
  }
  return installedDirs({ libDir: root, sysconfdir: recordedSysconfdir(root) });
}

/** The sysconfdir make install recorded; without a record, PREFIX/etc (root is PREFIX/lib/govern). */
function recordedSysconfdir(root: string): string {
  const file = path.join(root, LAYOUT_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return path.resolve(root, '..', '..', 'etc');
  }
  let sysconfdir: unknown;
  try {
    sysconfdir = (JSON.parse(text) as { sysconfdir?: unknown }).sysconfdir;
  } catch {
    // reported below
  }
  if (typeof sysconfdir !== 'string' || !path.isAbsolute(sysconfdir)) throw new UserError({ file, message: 'expected {"sysconfdir": "/absolute/path"}; reinstall govern' });
  return sysconfdir;
}

/** The user's directories, then the shipped ones. */
export function defaultSearchPaths(root = GOVERN_ROOT): SearchPaths {
  const dirs = defaultDirs(root);
  return {
    runners: [dirs.userRunners, dirs.shippedRunners],
    facts: [dirs.userFacts, dirs.shippedFacts],
    templates: [dirs.templates],
  };
}

/** The state tree `govern run` and `govern graph` apply when given no PATH: the configuration directory's `states`. */
export function defaultStateTree(root = GOVERN_ROOT): string {
  return defaultDirs(root).states;
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
