// One package index refresh per run (`apt-get update`, `dnf makecache`), however many repositories
// changed, and only when one did. A repository runner leaves it pending in the run's directory
// (GOVERN_RUN_DIR, which govern makes for each run and removes after it); the pkg runner runs it
// before it checks a package with that package manager, so the package is looked for in the new
// sources. A repository changed by hand (no run directory) is refreshed at once.
import fs from 'node:fs';
import path from 'node:path';
import type { ProviderContext } from '../../shared/command-runner.js';
import { APT_ENV, PackageTools } from './package-tools.js';

/** The package managers whose sources govern writes. */
export type IndexManager = 'apt' | 'dnf';

/** The refresh of each: apt-get reads every source's lists again; dnf fetches the metadata it lacks or holds expired. */
export const INDEX_REFRESH: Record<IndexManager, string[]> = {
  apt: ['apt-get', 'update', '-q'],
  dnf: ['dnf', '-y', '-q', 'makecache'],
};

/** The repository runner of each package manager, for noop's notes (`apt_repository:docker`). */
export const REPOSITORY_RUNNER: Record<IndexManager, string> = { apt: 'apt_repository', dnf: 'dnf_repository' };

export function isIndexManager(name: string): name is IndexManager {
  return Object.hasOwn(INDEX_REFRESH, name);
}

function marker(runDir: string | undefined, manager: IndexManager): string | undefined {
  if (!runDir || !path.isAbsolute(runDir) || !fs.existsSync(runDir)) return undefined;
  return path.join(runDir, 'pkg', `refresh-${manager}`);
}

/** Runs the refresh now, under the package lock; a failure (a source apt refuses) fails the caller with the tool's message. */
export async function refreshIndex(manager: IndexManager, context: ProviderContext): Promise<void> {
  await new PackageTools(context, manager === 'apt' ? APT_ENV : {}).runChecked(INDEX_REFRESH[manager]);
}

/** After a repository changed: the refresh pending for the run, or run now outside one. */
export async function repositoryChanged(runDir: string | undefined, manager: IndexManager, context: ProviderContext): Promise<'pending' | 'done'> {
  const file = marker(runDir, manager);
  if (file === undefined) {
    await refreshIndex(manager, context);
    return 'done';
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  return 'pending';
}

/**
 * Runs the refresh a repository left pending in this run, if any, and clears it; a failed refresh
 * stays pending (and fails the caller, and the next package checked tries it again).
 */
export async function refreshIfPending(runDir: string | undefined, manager: IndexManager, context: ProviderContext): Promise<boolean> {
  const file = marker(runDir, manager);
  if (file === undefined || !fs.existsSync(file)) return false;
  await refreshIndex(manager, context);
  fs.rmSync(file, { force: true });
  return true;
}
