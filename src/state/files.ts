// The state files of `govern run PATH`: PATH itself, or every *.hcl under it, in lexical path order
// (but for the tree's own runners.d, facts.d and templates.d at its root).
import fs from 'node:fs';
import path from 'node:path';
import { TREE_DIRS } from '../config/paths.js';
import { UserError } from '../shared/errors.js';

export function listStateFiles(target: string): string[] {
  let st: fs.Stats;
  try {
    st = fs.statSync(target);
  } catch (e) {
    throw new UserError(`${target}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`);
  }
  if (!st.isDirectory()) return [target];
  const found: string[] = [];
  const treeDirs = new Set(Object.values(TREE_DIRS));
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (dir === target && treeDirs.has(entry.name)) continue; // the tree's runners.d, facts.d, templates.d
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name.endsWith('.hcl') && (entry.isFile() || fs.statSync(full).isFile())) found.push(full);
    }
  };
  visit(target);
  found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (found.length === 0) throw new UserError(`${target}: no *.hcl state files in this directory`);
  return found;
}
