// What the repository runners (apt_repository, dnf_repository) share: the names of their files, the
// mode package managers read them with, and the decision over those files with the index refresh
// that follows a change. Pure.
import { decideFiles, filesMessage, type FileState, type FilesPlan } from './whole-file/decide-files.js';

/** A file name apt reads from sources.list.d, and dnf from yum.repos.d (apt ignores names with other characters). */
export const REPOSITORY_NAME = '[A-Za-z0-9_-][A-Za-z0-9_.-]*';

/** apt and dnf read sources and keys as unprivileged users (apt's _apt): readable by all, as the package managers' own. */
export const REPOSITORY_FILE_MODE = 0o644;

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
