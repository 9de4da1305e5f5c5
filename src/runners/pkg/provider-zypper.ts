// The zypper provider (openSUSE, SLES): zypper for the status, to install, upgrade, downgrade and
// remove, and zypper's XML search for the newest version offered. The status is zypper's own (its
// installed packages), not rpm -q: libzypp's rpm database need not be rpm's default one (Debian's
// rpm keeps ~/.rpmdb, libzypp /var/lib/rpm). `--name` makes zypper take NAME as a package name,
// never as a capability another package provides.
import { compareRpm, compareRpmToWanted, parseRpmVersion } from '../../shared/version/rpm.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { PackageStatus } from './decide.js';
import type { InstallTarget, PackageProvider } from './provider.js';
import { commandFailed, PackageTools } from '../lib/package-tools.js';

/** zypper's exit status for no package of that name (ZYPPER_EXIT_INF_CAP_NOT_FOUND). */
const NOT_FOUND = 104;

export function zypperProvider(context: ProviderContext): PackageProvider {
  const tools = new PackageTools(context);
  const zypper = ['zypper', '--non-interactive'];

  /** The installed instances only: --disable-repositories reads no repository, just the rpm database libzypp uses. */
  async function status(pkg: string): Promise<PackageStatus> {
    const argv = [...zypper, '--xmlout', '--disable-repositories', 'search', '--installed-only', '--details', '--match-exact', '--case-sensitive', '--type', 'package', pkg];
    const result = await tools.run(argv, { query: true });
    if (result.code === NOT_FOUND) return { installed: false };
    if (result.code !== 0) throw commandFailed(argv, result);
    return installedStatus(parseZypperSolvables(result.stdout, pkg));
  }

  async function install(pkg: string, target: InstallTarget): Promise<void> {
    // NAME=VERSION matches on the parts given (1.1 is met by 1.1-1); --oldpackage allows a downgrade.
    if (target.kind === 'version') await tools.runChecked([...zypper, 'install', '--oldpackage', '--name', `${pkg}=${target.version}`]);
    else await tools.runChecked([...zypper, 'install', '--name', pkg]);
  }

  /** The editions of the package the repositories offer, oldest first. */
  async function editions(pkg: string): Promise<string[]> {
    const result = await tools.run([...zypper, '--xmlout', 'search', '--details', '--match-exact', '--type', 'package', pkg], { query: true });
    if (result.code === NOT_FOUND) return [];
    if (result.code !== 0) throw commandFailed(['zypper', 'search', pkg], result);
    return parseZypperSolvables(result.stdout, pkg).map((s) => s.edition).sort(compareRpm);
  }

  async function latestAvailable(pkg: string): Promise<string | undefined> {
    return (await editions(pkg)).at(-1);
  }

  return {
    name: 'zypper',
    scheme: 'rpm',
    checkVersion(version: string): void {
      parseRpmVersion(version);
    },
    compareToWanted: compareRpmToWanted,
    status,
    latestAvailable,
    async checkInstallable(pkg: string, target: InstallTarget): Promise<void> {
      const offered = await editions(pkg);
      if (offered.length === 0) throw new UserError(`zypper knows no package ${pkg} in its repositories (zypper search): is it spelt right, and in a configured repository?`);
      if (target.kind === 'version' && !offered.some((edition) => compareRpmToWanted(edition, target.version) === 0)) {
        throw new UserError(`zypper knows no package ${pkg} ${target.version} in its repositories (offered: ${offered.join(', ')})`);
      }
    },
    install,
    async upgrade(pkg: string, target: InstallTarget): Promise<void> {
      if (target.kind === 'version') return install(pkg, target);
      // update has no --name: it updates what is installed under that name, the package status found.
      await tools.runChecked([...zypper, 'update', pkg]);
    },
    downgrade: (pkg, version) => install(pkg, { kind: 'version', version }),
    async uninstall(pkg: string): Promise<void> {
      await tools.runChecked([...zypper, 'remove', '--name', pkg]);
    },
    async purge(pkg: string): Promise<void> {
      // rpm removes a package's configuration with it (keeping only edited ones as .rpmsave).
      await tools.runChecked([...zypper, 'remove', '--name', pkg]);
    },
  };
}

/** One package row of `zypper --xmlout search --details`: edition is [EPOCH:]VERSION-RELEASE, the epoch only when not 0. */
export interface ZypperSolvable {
  edition: string;
  arch: string;
}

/** The rows for NAME: `<solvable ... name="NAME" kind="package" edition="1.1-1" arch="noarch" .../>`. */
export function parseZypperSolvables(xml: string, pkg: string): ZypperSolvable[] {
  const found: ZypperSolvable[] = [];
  for (const match of xml.matchAll(/<solvable\s([^>]*)\/?>/g)) {
    const attrs = new Map([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as [string, string]));
    const edition = attrs.get('edition');
    if (attrs.get('name') === pkg && attrs.get('kind') === 'package' && edition) found.push({ edition, arch: attrs.get('arch') ?? '' });
  }
  return found;
}

/** The installed instances as a status: the newest when there are several (kernels), as the dnf provider does. */
export function installedStatus(instances: ZypperSolvable[]): PackageStatus {
  const newest = [...instances].sort((a, b) => compareRpm(a.edition, b.edition)).at(-1);
  if (!newest) return { installed: false };
  return { installed: true, version: newest.edition.replace(/^[0-9]+:/, ''), fullVersion: newest.edition, arch: newest.arch };
}
