// The pkg runner: properties -> provider -> status -> decide -> act -> check the desired state.
import fs from 'node:fs';
import { providerContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { compareVersions } from '../../shared/version/index.js';
import type { RunnerDefinition, RunnerRequest } from '../kit/index.js';
import { decide, describeChange, isDesiredState, sameStatus, type Action, type PackageStatus } from './decide.js';
import { description } from './description.js';
import { DPKG_DATABASE } from './dpkg-snapshot.js';
import { isIndexManager, refreshIfPending, REPOSITORY_RUNNER } from '../lib/package-index.js';
import { prefetchDpkgStatus } from './provider-apt.js';
import { pendingOf } from '../kit/noop-pending.js';
import { describeEnsure, packageProperties, type PackageProperties } from './properties.js';
import type { InstallTarget, PackageProvider } from './provider.js';
import { packageProvider } from './providers.js';

export const pkgRunner: RunnerDefinition<typeof description> = {
  name: 'pkg',
  description,
  async run(request) {
    const properties = packageProperties(request);
    // A package has nothing to refresh: the signal (the only one accepted) is understood and ignored.
    if (request.signal !== undefined) return { changed: false, message: 'refresh: nothing to do for a package' };
    const context = providerContext(request.env, request.log);
    const provider = await packageProvider(properties, context);
    // A repository changed earlier in the run: its index is read first (docs/runners.md, "The package index").
    if (isIndexManager(provider.name)) await refreshIfPending(request.env.GOVERN_RUN_DIR, provider.name, context);
    return applyPackage(properties, provider, request);
  },
  async prepare(env) {
    if (fs.existsSync(DPKG_DATABASE[0])) await prefetchDpkgStatus(providerContext(env, () => undefined));
  },
};

/** Brings one package to its desired state with the given provider (or, in noop, says what that would take). */
export async function applyPackage(
  properties: PackageProperties,
  provider: PackageProvider,
  request: Pick<RunnerRequest, 'noop' | 'log'> & Partial<Pick<RunnerRequest, 'pending'>>,
): Promise<RunnerResult> {
  if (properties.ensure.kind === 'version') provider.checkVersion(properties.ensure.version);
  const name = properties.name;

  const before = await provider.status(name);
  request.log(`${provider.name}: ${name} is ${describeStatus(before)}; wanted ${describeEnsure(properties.ensure)}`);
  const latestAvailable = request.noop && properties.ensure.kind === 'latest' && before.installed ? await provider.latestAvailable(name) : undefined;
  const decision = decide(properties.ensure, before, provider.compareToWanted, { latestAvailable });
  if (decision.action.kind === 'none') return { changed: false, message: decision.message };
  if (request.noop) {
    const target = installTarget(decision.action);
    if (target) {
      const note = await checkInstallableInNoop(provider, name, target, request);
      if (note !== undefined) return { changed: true, message: `${decision.message} (${note})` };
    }
    return { changed: true, message: decision.message };
  }

  await act(provider, name, decision.action);

  const after = await provider.status(name);
  if (!isDesiredState(properties.ensure, after, provider.compareToWanted)) {
    throw new UserError(
      `${name} did not reach the desired state: wanted ${describeEnsure(properties.ensure)}, ${provider.name} reports ${describeStatus(after)}`,
    );
  }
  if (sameStatus(before, after)) {
    // Only an upgrade to latest can run and change nothing: the package manager had nothing newer.
    const message = after.installed ? `already at the latest version ${after.fullVersion}` : describeChange(before, after, (a, b) => compareVersions(provider.scheme, a, b));
    return { changed: false, message };
  }
  const change = describeChange(before, after, (a, b) => compareVersions(provider.scheme, a, b));
  return { changed: true, message: decision.action.kind === 'purge' && before.installed ? `${change} and purged its configuration` : change };
}

/**
 * Noop's check of the sources; when they cannot give the package but a repository of this package
 * manager would change first in the run, what the real run would read is not known yet: a note
 * naming it instead of the failure.
 */
async function checkInstallableInNoop(
  provider: PackageProvider,
  name: string,
  target: InstallTarget,
  request: Partial<Pick<RunnerRequest, 'noop' | 'pending'>>,
): Promise<string | undefined> {
  const repositories = isIndexManager(provider.name) ? pendingOf({ noop: true, pending: request.pending ?? [] }, REPOSITORY_RUNNER[provider.name]) : [];
  try {
    await provider.checkInstallable(name, target);
    return undefined;
  } catch (e) {
    if (!(e instanceof UserError) || repositories.length === 0) throw e;
    return `not in the configured sources yet: ${repositories.join(', ')} would change them first`;
  }
}

async function act(provider: PackageProvider, name: string, action: Action): Promise<void> {
  switch (action.kind) {
    case 'none':
      return;
    case 'install':
      return provider.install(name, { kind: 'any' });
    case 'install-latest':
      return provider.install(name, { kind: 'latest' });
    case 'upgrade-latest':
      return provider.upgrade(name, { kind: 'latest' });
    case 'install-version':
      return provider.install(name, { kind: 'version', version: action.version });
    case 'upgrade':
      return provider.upgrade(name, { kind: 'version', version: action.version });
    case 'downgrade':
      return provider.downgrade(name, action.version);
    case 'uninstall':
      return provider.uninstall(name);
    case 'purge':
      return provider.purge(name);
  }
}

/** What an action would ask the package manager to install; none for a removal. */
function installTarget(action: Action): InstallTarget | undefined {
  switch (action.kind) {
    case 'install':
      return { kind: 'any' };
    case 'install-latest':
    case 'upgrade-latest':
      return { kind: 'latest' };
    case 'install-version':
    case 'upgrade':
    case 'downgrade':
      return { kind: 'version', version: action.version };
    default:
      return undefined;
  }
}

function describeStatus(status: PackageStatus): string {
  if (status.installed) return `installed at ${status.fullVersion}${status.arch ? ` (${status.arch})` : ''}`;
  return status.state ? `absent (${status.state}${status.version ? ` ${status.version}` : ''})` : 'absent';
}
