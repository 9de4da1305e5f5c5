// The modules of a tree: each directory under modules/ is one, named by the directory, holding state
// files (and its own templates.d/, files/). Read once per run, whatever the number of instances.
import fs from 'node:fs';
import path from 'node:path';
import { TREE_DIRS } from '../../config/paths.js';
import { parseHcl } from '../../hcl/parse.js';
import { UserError, type Problem } from '../../shared/errors.js';
import { readSourceFile } from '../../shared/source-file.js';
import { checkVendored } from '../../module-sources/verify.js';
import { listStateFiles } from '../files.js';
import { misplacedVariable, MODULES_DIR, type VariableDecl } from './declarations.js';
import { readVariables } from './variables.js';

export interface ModuleSource {
  name: string;
  dir: string;
  /** Its state files in lexical path order, with their text. */
  files: { file: string; source: string; misplaced?: boolean }[];
  variables: VariableDecl[];
  /** `variable` blocks in files that use templates: such a file is not rendered (docs/modules.md). */
  misplaced: Problem[];
}

/** A module's name: the directory's (letters, digits, _ and -). */
const MODULE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The modules/ directory of a tree, when it has one. */
export function modulesDir(root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  const dir = path.join(root, MODULES_DIR);
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? dir : undefined;
}

/** The names of the tree's modules, sorted. */
export function moduleNames(root: string | undefined): string[] {
  const dir = modulesDir(root);
  if (dir === undefined) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && MODULE_NAME.test(e.name) && (e.isDirectory() || (e.isSymbolicLink() && fs.statSync(path.join(dir, e.name)).isDirectory())))
    .map((e) => e.name)
    .sort();
}

/** Reads a module's files and its parameters; every problem at once. */
export function readModule(root: string, name: string): ModuleSource {
  const dir = path.join(root, MODULES_DIR, name);
  checkVendored(root, name);
  const problems: Problem[] = [];
  const files: ModuleSource['files'] = [];
  const variables: VariableDecl[] = [];
  const misplaced: Problem[] = [];
  for (const file of listStateFiles(dir)) {
    try {
      const source = readSourceFile(file, root);
      // Parameters are read before the module renders, from the files that are plain HCL.
      const found = source.includes('{{') ? templatedVariables(file, source) : [];
      files.push({ file, source, ...(found.length > 0 ? { misplaced: true } : {}) });
      misplaced.push(...found);
      if (!source.includes('{{')) variables.push(...readVariables(file, parseHcl(file, source), problems));
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...e.problems);
    }
  }
  const seen = new Map<string, VariableDecl>();
  for (const v of variables) {
    const first = seen.get(v.name);
    if (first) problems.push({ ...v.at, message: `variable "${v.name}" is declared twice in module ${name} (first at ${first.at.file}:${first.at.line})` });
    else seen.set(v.name, v);
  }
  if (problems.length > 0) throw new UserError(problems);
  return { name, dir, files, variables: [...seen.values()], misplaced };
}

/**
 * The `variable` blocks of a file that uses templates, found by their header lines: the file cannot
 * be parsed before it renders, and rendering it would only say that each parameter it uses is unknown.
 */
function templatedVariables(file: string, source: string): Problem[] {
  const found: Problem[] = [];
  source.split('\n').forEach((text, i) => {
    const m = /^\s*variable\s+"([^"{}]*)"\s*\{/.exec(text);
    if (m) found.push({ file, line: i + 1, message: misplacedVariable(m[1]) });
  });
  return found;
}

/**
 * The runners.d/ and facts.d/ of the tree's modules, in module name order: searched right after the
 * tree's own, for every module of the tree whether this host instantiates it or not (a fact or a
 * runner is the host's, not an instance's).
 */
export function moduleSearchDirs(root: string | undefined): { runners: string[]; facts: string[] } {
  const dir = modulesDir(root);
  const found = { runners: [] as string[], facts: [] as string[] };
  if (dir === undefined) return found;
  for (const name of moduleNames(root)) {
    for (const [kind, sub] of [['runners', TREE_DIRS.runners], ['facts', TREE_DIRS.facts]] as const) {
      const candidate = path.join(dir, name, sub);
      if (fs.existsSync(candidate)) found[kind].push(candidate);
    }
  }
  return found;
}
