// The APT provider (package-type.txt, "APT Provider"): dpkg-query for the status, apt-cache policy
// for the candidate version, apt-get to install and remove.
import { compareVersions } from '../../shared/version/index.js';
import { parseDebianVersion } from '../../shared/version/debian.js';
import { UserError } from '../../shared/errors.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import type { PackageStatus } from './decide.js';
import type { InstallTarget, PackageProvider } from './provider.js';
import { DpkgSnapshot } from './dpkg-snapshot.js';
import { APT_ENV, LOCK_WAIT_SECONDS, PackageTools } from '../lib/package-tools.js';

/** The seed's status query; one line per package instance (a name can match several architectures). */
export const DPKG_QUERY_FORMAT = '${Package} ${Version} ${Architecture} ${db:Status-Status}\n';

/** apt waits this long for dpkg's own lock (held by another tool) instead of failing at once. */
const DPKG_LOCK_TIMEOUT = `DPkg::Lock::Timeout=${LOCK_WAIT_SECONDS}`;

/** One per runner process: a persistent runner answers every status question of a run from it. */
const snapshot = new DpkgSnapshot();

/** The seed's query, for every package at once (see dpkg-snapshot.ts). */
function queryAllWith(tools: PackageTools): () => Promise<string> {
  return async () => (await tools.runChecked(['dpkg-query', '-W', `-f=${DPKG_QUERY_FORMAT}`], { query: true })).stdout;
}

/** A persistent runner reads dpkg's status while govern is still planning, when the host has dpkg. */
export function prefetchDpkgStatus(context: ProviderContext): Promise<unknown> {
  return snapshot.prefetch(queryAllWith(new PackageTools(context, APT_ENV)));
}

export function aptProvider(context: ProviderContext): PackageProvider {
  const tools = new PackageTools(context, APT_ENV);

  async function status(pkg: string): Promise<PackageStatus> {
    return parseDpkgQuery((await snapshot.linesFor(pkg, queryAllWith(tools))).join('\n'));
  }

  async function latestAvailable(pkg: string): Promise<string | undefined> {
    const result = await tools.runChecked(['apt-cache', 'policy', pkg], { query: true });
    return parseCandidate(result.stdout);
  }

  /**
   * apt-get reads a name it does not know as something else: a trailing "-" or "+" as remove or
   * install of the rest (`less-` removes less), and anything else as a regular expression (`les.`
   * installs every match). Only a name apt knows exactly is passed to it.
   */
  async function requireKnownPackage(pkg: string): Promise<void> {
    const name = pkg.split(':')[0];
    const known = await tools.runChecked(['apt-cache', 'pkgnames', '--', name], { query: true });
    if (!known.stdout.split('\n').includes(name)) {
      throw new UserError(`apt knows no package named "${name}" (apt-cache pkgnames): is it spelt right, and in a configured source that apt-get update has read?`);
    }
  }

  /** What install would ask of apt's lists, without installing. */
  async function checkInstallable(pkg: string, target: InstallTarget): Promise<void> {
    await requireKnownPackage(pkg);
    if (target.kind === 'latest' && (await latestAvailable(pkg)) === undefined) {
      throw new UserError(`apt has no installation candidate for ${pkg} (is it in a configured source, and did apt-get update run?)`);
    }
    if (target.kind === 'version') {
      // `apt-cache madison` lines: "NAME | VERSION | SOURCE"
      const versions = (await tools.runChecked(['apt-cache', 'madison', pkg], { query: true })).stdout.split('\n').map((l) => l.split('|')[1]?.trim());
      if (!versions.includes(target.version)) throw new UserError(`apt knows no version ${target.version} of ${pkg} (apt-cache madison ${pkg}): is it in a configured source?`);
    }
  }

  async function install(pkg: string, target: InstallTarget): Promise<void> {
    await requireKnownPackage(pkg);
    const base = ['apt-get', 'install', '-y', '-q', '-o', 'DPkg::Options::=--force-confold', '-o', DPKG_LOCK_TIMEOUT];
    switch (target.kind) {
      case 'any':
        await tools.runChecked([...base, pkg]);
        return;
      case 'latest': {
        const candidate = await latestAvailable(pkg);
        if (candidate === undefined) throw new UserError(`apt has no installation candidate for ${pkg} (is it in a configured source, and did apt-get update run?)`);
        await tools.runChecked([...base, `${pkg}=${candidate}`]);
        return;
      }
      case 'version':
        await tools.runChecked([...base, '--allow-downgrades', `${pkg}=${target.version}`]);
        return;
    }
  }

  return {
    name: 'apt',
    scheme: 'debian',
    checkVersion(version: string): void {
      parseDebianVersion(version);
    },
    compareToWanted: (installed, wanted) => compareVersions('debian', installed, wanted),
    status,
    latestAvailable,
    checkInstallable,
    install,
    // The seed: upgrade and downgrade are installs of the target version (--allow-downgrades comes with a version).
    upgrade: install,
    downgrade: (pkg, version) => install(pkg, { kind: 'version', version }),
    async uninstall(pkg: string): Promise<void> {
      await tools.runChecked(['apt-get', '-q', '-y', '-o', DPKG_LOCK_TIMEOUT, 'remove', pkg]);
    },
    async purge(pkg: string): Promise<void> {
      await tools.runChecked(['apt-get', '-q', '-y', '-o', DPKG_LOCK_TIMEOUT, 'purge', pkg]);
    },
  };
}

/** Only `installed` counts as present: config-files, half-installed, unpacked... are absent, so an install repairs them. */
export function parseDpkgQuery(stdout: string): PackageStatus {
  let absent: PackageStatus = { installed: false };
  for (const line of stdout.split('\n')) {
    const [, version, arch, state] = line.trim().split(' ');
    if (state === undefined) continue;
    if (state === 'installed') return { installed: true, version, fullVersion: version, arch };
    if (state !== 'not-installed' && absent.state === undefined) absent = { installed: false, state, version };
  }
  return absent;
}

/** The `Candidate:` line of `apt-cache policy`; "(none)" or no line at all when apt knows no version. */
export function parseCandidate(stdout: string): string | undefined {
  const match = /^\s*Candidate:\s*(\S+)\s*$/m.exec(stdout);
  if (!match || match[1] === '(none)') return undefined;
  return match[1];
}
