// The zypper provider (openSUSE, SLES): rpm -q for the status (as dnf's), zypper to install,
// upgrade, downgrade and remove, and zypper's XML search for the newest version offered.
// `--name` makes zypper take NAME as a package name, never as a capability another package provides.
import { compareRpm, compareRpmToWanted, parseRpmVersion } from '../../shared/version/rpm.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { InstallTarget, PackageProvider } from './provider.js';
import { rpmStatus } from './provider-dnf.js';
import { commandFailed, PackageTools } from '../lib/package-tools.js';

export function zypperProvider(context: ProviderContext): PackageProvider {
  const tools = new PackageTools(context);
  const zypper = ['zypper', '--non-interactive'];

  const status = (pkg: string) => rpmStatus(tools, pkg);

  async function install(pkg: string, target: InstallTarget): Promise<void> {
    // NAME=VERSION matches on the parts given (1.1 is met by 1.1-1); --oldpackage allows a downgrade.
    if (target.kind === 'version') await tools.runChecked([...zypper, 'install', '--oldpackage', '--name', `${pkg}=${target.version}`]);
    else await tools.runChecked([...zypper, 'install', '--name', pkg]);
  }

  /** The editions of the package the repositories offer, oldest first. */
  async function editions(pkg: string): Promise<string[]> {
    const result = await tools.run([...zypper, '--xmlout', 'search', '--details', '--match-exact', '--type', 'package', pkg], { query: true });
    // 104: no package of that name (ZYPPER_EXIT_INF_CAP_NOT_FOUND).
    if (result.code === 104) return [];
    if (result.code !== 0) throw commandFailed(['zypper', 'search', pkg], result);
    return parseZypperSearch(result.stdout, pkg).sort(compareRpm);
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

/** The editions of NAME in `zypper --xmlout search --details`: `<solvable ... name="NAME" kind="package" edition="1.1-1" .../>`. */
export function parseZypperSearch(xml: string, pkg: string): string[] {
  const editions: string[] = [];
  for (const match of xml.matchAll(/<solvable\s([^>]*)\/?>/g)) {
    const attrs = new Map([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as [string, string]));
    if (attrs.get('name') === pkg && attrs.get('kind') === 'package' && attrs.get('edition')) editions.push(attrs.get('edition')!);
  }
  return editions;
}
