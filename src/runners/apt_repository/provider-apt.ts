// The apt_repository provider: where apt reads sources and keyrings (apt-config), the signing key
// read or fetched and checked, and the package index refreshed (apt-get update) after a change, left
// pending in the run so that one refresh follows every repository changed in it. The files are
// written whole through lib/whole-file, as every runner's file.
import type { ProviderContext } from '../../shared/command-runner.js';
import { repositoryChanged } from '../lib/package-index.js';
import { aptPaths, type AptPaths } from './apt-paths.js';
import type { AptRepositoryProperties } from './properties.js';
import { signingKey, type SigningKey } from './signing-key.js';

export interface AptRepositoryProvider {
  /** apt's sources.list.d and keyrings directories, as apt-config answers. */
  paths(): Promise<AptPaths>;
  /** The key to write; `written` is the keyring the last run left, if any. */
  signingKey(props: AptRepositoryProperties, written: Buffer | undefined): Promise<SigningKey>;
  /** A repository changed: apt-get update pending in the run (`runDir`), or done at once outside one. */
  indexChanged(runDir: string | undefined): Promise<'pending' | 'done'>;
}

export function aptProvider(context: ProviderContext): AptRepositoryProvider {
  return {
    paths: () => aptPaths(context),
    signingKey: (props, written) => signingKey(props, written, context.log),
    indexChanged: (runDir) => repositoryChanged(runDir, 'apt', context),
  };
}
