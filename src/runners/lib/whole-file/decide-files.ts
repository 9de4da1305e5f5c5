// Several files a runner writes whole, decided together (a repository's source and its key): one
// change if any changed, and one message for all of them. Pure.
import { decideWholeFile, type WholeFileCurrent, type WholeFileDesired, type WholeFilePlan } from './decide.js';

export interface FileState {
  desired: WholeFileDesired;
  current: WholeFileCurrent;
}

export interface FilesPlan {
  changed: boolean;
  /** In the order given, each with its own plan. */
  files: (FileState & { plan: WholeFilePlan })[];
}

export function decideFiles(files: FileState[]): FilesPlan {
  const decided = files.map((f) => ({ ...f, plan: decideWholeFile(f.desired, f.current) }));
  return { changed: decided.some((f) => f.plan.changed), files: decided };
}

/**
 * What changed, in order ("created /etc/a, created /etc/b"), "Would have ..." in noop mode; with
 * nothing to change, the first file's own words ("/etc/a up to date").
 */
export function filesMessage(plan: FilesPlan, noop: boolean): string {
  const changes = plan.files.filter((f) => f.plan.changed).map((f) => f.plan.summary);
  if (changes.length === 0) return plan.files[0].plan.summary;
  return `${noop ? 'Would have ' : ''}${changes.join(', ')}`;
}
