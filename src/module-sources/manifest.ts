// modules.hcl: the modules a tree (or a module) takes from elsewhere, one `module_source` block
// each, from a git repository at a ref or from a directory (docs/modules.md, "Modules from git").
// Every problem of the file is reported at once, at its line.
import fs from 'node:fs';
import path from 'node:path';
import { parseHcl } from '../hcl/parse.js';
import type { HclBlock } from '../hcl/syntax.js';
import { UserError, type Problem } from '../shared/errors.js';
import { readSourceFile } from '../shared/source-file.js';
import { didYouMean } from '../shared/suggest.js';

export const MANIFEST_FILE = 'modules.hcl';

export interface ModuleSourceDecl {
  name: string;
  /** A git repository (URL or path) and the ref to take: a tag, a branch or a full commit id. */
  git?: string;
  ref?: string;
  /** A directory on this host, relative to the file that names it. */
  path?: string;
  /** An allowed signers file (git's SSH signing), inside the tree: the commit must be signed by one of its keys. */
  allowedSigners?: string;
  /** Where it is declared: `modules.hcl:LINE`, or a module's own modules.hcl. */
  file: string;
  line: number;
}

/** A module's name: a directory under modules/ (as module-tree.ts reads them). */
const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const KEYS = ['git', 'ref', 'path', 'allowed_signers'] as const;
/** A ref as git accepts it on a command line: no option, no revision syntax, no traversal. */
const REF = /^(?!-)(?!.*\.\.)(?!.*[~^:?*[\\\s@{])[\x21-\x7e]{1,200}$/;

/** The declarations of `file`; none when it does not exist. `root` bounds the files it may name. */
export function readManifest(file: string, root: string): ModuleSourceDecl[] {
  if (!fs.existsSync(file)) return [];
  const text = readSourceFile(file, root);
  const problems: Problem[] = [];
  const found: ModuleSourceDecl[] = [];
  const seen = new Map<string, number>();
  for (const item of parseHcl(file, text).items) {
    const line = item.at.line;
    if (item.kind !== 'block' || item.type !== 'module_source') {
      const word = item.kind === 'block' ? item.type : item.name;
      problems.push({ file, line, message: `unknown ${item.kind} "${word}"${didYouMean(word, ['module_source'])}: ${MANIFEST_FILE} holds module_source "NAME" { git = "...", ref = "..." } blocks` });
      continue;
    }
    const decl = readBlock(file, item, problems);
    if (decl === undefined) continue;
    const first = seen.get(decl.name);
    if (first !== undefined) problems.push({ file, line, message: `module_source "${decl.name}" is declared twice (first at line ${first})` });
    else {
      seen.set(decl.name, line);
      found.push(decl);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  return found;
}

function readBlock(file: string, block: HclBlock, problems: Problem[]): ModuleSourceDecl | undefined {
  const line = block.at.line;
  const before = problems.length;
  if (block.labels.length !== 1 || !NAME.test(block.labels[0])) {
    problems.push({ file, line, message: 'module_source takes one label, the module\'s name (letters, digits, _ and -, starting with a letter): module_source "nginx" { ... }' });
    return undefined;
  }
  const name = block.labels[0];
  const values: Record<string, string> = {};
  for (const item of block.body) {
    const word = item.kind === 'block' ? item.type : item.name;
    if (item.kind === 'block' || !(KEYS as readonly string[]).includes(item.name)) {
      problems.push({ file, line: item.at.line, message: `module_source "${name}": unknown ${item.kind} "${word}"${didYouMean(word, KEYS)} (it takes ${KEYS.join(', ')})` });
    } else if (typeof item.value !== 'string' || item.value === '') {
      problems.push({ file, line: item.at.line, message: `module_source "${name}": ${item.name} must be a non-empty string` });
    } else values[item.name] = item.value;
  }
  const where = `module_source "${name}"`;
  if ((values.git === undefined) === (values.path === undefined)) problems.push({ file, line, message: `${where}: give either git = "URL" (with ref) or path = "DIR"` });
  if (values.git !== undefined) {
    if (values.git.startsWith('-')) problems.push({ file, line, message: `${where}: git = "${values.git}" is not a repository` });
    if (values.ref === undefined) problems.push({ file, line, message: `${where}: git needs ref = "TAG" (or a branch, or a full commit id): the version this tree takes` });
    else if (!REF.test(values.ref)) problems.push({ file, line, message: `${where}: ref = "${values.ref}" is not a tag, branch or commit id` });
  } else if (values.ref !== undefined || values.allowed_signers !== undefined) {
    problems.push({ file, line, message: `${where}: ref and allowed_signers belong with git = "URL"` });
  }
  if (problems.length > before) return undefined;
  return {
    name,
    ...(values.git !== undefined ? { git: values.git, ref: values.ref } : { path: path.resolve(path.dirname(file), values.path) }),
    ...(values.allowed_signers !== undefined ? { allowedSigners: path.resolve(path.dirname(file), values.allowed_signers) } : {}),
    file,
    line,
  };
}

/** How a declaration is shown: `git URL at REF` or `DIR`. */
export function sourceText(d: ModuleSourceDecl): string {
  return d.git !== undefined ? `${d.git} at ${d.ref}` : d.path ?? '';
}

/** Two declarations of one name take the same thing. */
export function sameSource(a: ModuleSourceDecl, b: ModuleSourceDecl): boolean {
  return a.git === b.git && a.ref === b.ref && a.path === b.path;
}
