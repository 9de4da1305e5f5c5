// The dnf_repository provider: the package index refreshed (dnf makecache) after a change, left
// pending in the run so that one refresh follows every repository changed in it. The .repo file is
// written whole through lib/whole-file, as every runner's file.
import type { ProviderContext } from '../../shared/command-runner.js';
import { repositoryChanged } from '../lib/package-index.js';

export interface DnfRepositoryProvider {
  /** A repository changed: dnf makecache pending in the run (`runDir`), or done at once outside one. */
  indexChanged(runDir: string | undefined): Promise<'pending' | 'done'>;
}

export function dnfProvider(context: ProviderContext): DnfRepositoryProvider {
  return { indexChanged: (runDir) => repositoryChanged(runDir, 'dnf', context) };
}
