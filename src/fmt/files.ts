// The files `govern fmt PATH...` lays out: a file given, or every *.hcl under a directory given
// (state files, modules, data files, hierarchy.hcl, recipients.hcl), never through a symbolic link
// (fmt writes what it reads) and never in runners.d, facts.d or templates.d, whose files are not
// govern's HCL.
import fs from 'node:fs';
import path from 'node:path';
import { TREE_DIRS } from '../config/paths.js';
import { DATA_DIR, HIERARCHY_FILE } from '../data/hierarchy.js';
import { ROLLOUT_FILE } from '../pull/rollout-file.js';
import { RECIPIENTS_FILE } from '../secrets/recipients.js';
import { UserError, type Problem } from '../shared/errors.js';

export interface FmtFile {
  file: string;
  /** The file renders as a template (state files, modules, hierarchy.hcl); data files and recipients.hcl do not. */
  templated: boolean;
}

/** Bounds a walk through a directory given by mistake (/, say). */
const MAX_FILES = 100_000;
const NOT_HCL = new Set<string>(Object.values(TREE_DIRS));

export function fmtFiles(given: string[]): FmtFile[] {
  const found: FmtFile[] = [];
  const problems: Problem[] = [];
  for (const top of given) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(top);
    } catch (e) {
      problems.push({ file: top, message: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message });
      continue;
    }
    if (st.isSymbolicLink()) problems.push({ file: top, message: 'a symbolic link: fmt rewrites files, and formats the file itself, not a link to it' });
    else if (st.isDirectory()) walk(top, found, problems);
    else if (st.isFile()) found.push({ file: top, templated: isTemplated(top) });
    else problems.push({ file: top, message: 'not a regular file or directory' });
  }
  if (problems.length > 0) throw new UserError(problems);
  return found;
}

function walk(dir: string, found: FmtFile[], problems: Problem[]): void {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !NOT_HCL.has(entry.name) && entry.name !== 'node_modules') walk(full, found, problems);
    else if (entry.isFile() && entry.name.endsWith('.hcl')) {
      if (found.length >= MAX_FILES) throw new UserError(`${dir}: more than ${MAX_FILES} *.hcl files: give the tree's directory`);
      found.push({ file: full, templated: isTemplated(full) });
    }
  }
}

/** A data file is one under a data/ directory beside a hierarchy.hcl; recipients.hcl and rollout.hcl are read as they are. */
export function isTemplated(file: string): boolean {
  if (path.basename(file) === RECIPIENTS_FILE || path.basename(file) === ROLLOUT_FILE) return false;
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    if (path.basename(dir) === DATA_DIR && fs.existsSync(path.join(path.dirname(dir), HIERARCHY_FILE))) return false;
    if (path.dirname(dir) === dir) return true;
  }
}
