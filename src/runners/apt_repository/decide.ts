// The apt_repository decision: its source file and key files as wanted + as found -> what to write
// or remove, and its message. Pure: the whole-file decision table of each file (docs/apt_repository.md),
// and the index refresh that follows a change.
import { decideFiles, filesMessage, type FileState, type FilesPlan } from '../lib/whole-file/decide-files.js';

export interface RepositoryPlan extends FilesPlan {
  /** A change means the package index must be read again before a package is checked. */
  refresh: boolean;
}

export function decideRepository(files: FileState[]): RepositoryPlan {
  const plan = decideFiles(files);
  return { ...plan, refresh: plan.changed };
}

/**
 * "created /etc/apt/keyrings/x.asc, created /etc/apt/sources.list.d/x.sources; apt-get update pending"
 * (or "...; apt-get update done" outside a run); in noop mode "Would have ...", nothing about the refresh.
 */
export function repositoryMessage(plan: RepositoryPlan, noop: boolean, refreshCommand: string, refresh?: 'pending' | 'done'): string {
  const message = filesMessage(plan, noop);
  if (noop || refresh === undefined) return message;
  return `${message}; ${refreshCommand} ${refresh}`;
}

/**
 * The order of the changes: keys written before the source that names them, keys removed after it,
 * so that apt, whenever it reads the source, finds the key it names.
 */
export function applyOrder<T extends { plan: { action: string } }>(keys: T[], source: T): T[] {
  return [...keys.filter((k) => k.plan.action === 'write'), source, ...keys.filter((k) => k.plan.action !== 'write')];
}
