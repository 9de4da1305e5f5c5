// Finds the executable for each runner (block type) a state tree uses: the first runners directory
// that has an executable file of that name wins, so user directories override shipped ones. A runner
// that someone other than root (or the user running govern) could change is refused (shared/trust.ts).
import fs from 'node:fs';
import type { Problem } from '../shared/errors.js';
import { findExecutable } from '../shared/find-program.js';
import { didYouMean } from '../shared/suggest.js';
import { trustedProgram } from '../shared/trust.js';
import type { Resource } from '../state/resource.js';

export interface FoundRunners {
  /** Block type -> absolute path of its executable. */
  executables: Map<string, string>;
  /** A runner not found, at the first resource that uses it. */
  problems: Problem[];
}

export function findRunners(resources: Resource[], dirs: string[]): FoundRunners {
  const executables = new Map<string, string>();
  const problems: Problem[] = [];
  const missing = new Set<string>();
  for (const r of resources) {
    if (executables.has(r.type) || missing.has(r.type)) continue;
    const executable = findExecutable(r.type, dirs);
    const trusted = executable === undefined ? undefined : trustedProgram(executable);
    if (trusted && 'path' in trusted) executables.set(r.type, trusted.path);
    else if (trusted) {
      missing.add(r.type);
      problems.push({ ...r.at, message: `runner "${r.type}": ${trusted.refused}` });
    } else {
      missing.add(r.type);
      const where = dirs.join(', ') || '(no runners directories)';
      problems.push({ ...r.at, message: `no runner "${r.type}": no executable named ${r.type} in ${where}${didYouMean(r.type, runnerNames(dirs))}` });
    }
  }
  return { executables, problems };
}

/** Every executable in the runners directories, for a suggestion. */
function runnerNames(dirs: string[]): string[] {
  return dirs.flatMap((dir) => {
    try {
      return fs.readdirSync(dir).filter((name) => findExecutable(name, [dir]) !== undefined);
    } catch {
      return [];
    }
  });
}
