// Finds the executable for each runner (block type): the first runners directory that has an
// executable file of that name wins, so user directories override shipped ones.
import fs from 'node:fs';
import path from 'node:path';
import { UserError, type Problem } from '../shared/errors.js';
import type { Resource } from '../state/resource.js';

export function findRunner(type: string, dirs: string[]): string | undefined {
  for (const dir of dirs) {
    const candidate = path.join(dir, type);
    try {
      const st = fs.statSync(candidate);
      if (st.isFile() && (st.mode & 0o111) !== 0) return path.resolve(candidate);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Every runner the resources need; a missing one is an error naming where it is used. */
export function findRunners(resources: Resource[], dirs: string[]): Map<string, string> {
  const found = new Map<string, string>();
  const problems: Problem[] = [];
  const missing = new Set<string>();
  for (const r of resources) {
    if (found.has(r.type)) continue;
    const executable = findRunner(r.type, dirs);
    if (executable) found.set(r.type, executable);
    else if (!missing.has(r.type)) {
      missing.add(r.type);
      problems.push({ ...r.at, message: `no runner "${r.type}": no executable named ${r.type} in ${dirs.join(', ') || '(no runners directories)'}` });
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  return found;
}
