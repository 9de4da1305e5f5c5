// The pkgng provider (FreeBSD's pkg(8); Puppet's and Ansible's name for it): `pkg info -e` and
// `pkg query %v` for the status, `pkg rquery -U %v` for what the repositories offer, `pkg install`,
// `pkg upgrade` and `pkg delete`, every one with -y (no question on a terminal).
//
// Written from pkg's manual pages and tested against a fake `pkg` that accepts only that syntax: it
// has never run against FreeBSD's pkg (docs/portability.md). A FreeBSD repository offers one version
// of a package, so a version is installed, upgraded or downgraded to only when a repository offers
// it; otherwise the resource fails naming what is offered.
import { checkFreebsdVersion, compareFreebsd, compareFreebsdToWanted } from '../../shared/version/freebsd.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { PackageStatus } from './decide.js';
import type { InstallTarget, PackageProvider } from './provider.js';
import { commandFailed, PackageTools } from '../lib/package-tools.js';

/** A package name as the ports make them (PKGNAMEPREFIX-PORTNAME...): no glob or pattern characters. */
const PACKAGE_NAME = /^[A-Za-z0-9_+][A-Za-z0-9._+-]*$/;

export function pkgngProvider(context: ProviderContext): PackageProvider {
  const tools = new PackageTools(context);

  function checkName(pkg: string): void {
    if (!PACKAGE_NAME.test(pkg)) throw new UserError(`invalid FreeBSD package name ${JSON.stringify(pkg)}: letters, digits and ._+- only, not starting with - or .`);
  }

  async function status(pkg: string): Promise<PackageStatus> {
    checkName(pkg);
    // pkg info -e: exit 0 when the package is installed, 1 when it is not (pkg-info(8)).
    const exists = await tools.run(['pkg', 'info', '-e', pkg], { query: true });
    if (exists.code === 1 && exists.stdout.trim() === '') return { installed: false };
    if (exists.code !== 0) throw commandFailed(['pkg', 'info', '-e', pkg], exists);
    const query = await tools.runChecked(['pkg', 'query', '%v', pkg], { query: true });
    const version = query.stdout.split('\n').map((l) => l.trim()).find((l) => l !== '');
    if (version === undefined) throw new UserError(`pkg query %v ${pkg} printed no version for an installed package`);
    return { installed: true, version, fullVersion: version };
  }

  /** The versions the repositories offer (one line per repository), newest first; none when no repository has it. */
  async function offered(pkg: string): Promise<string[]> {
    checkName(pkg);
    // -U: read the local copy of the catalogues, never fetch them (a query, and noop's).
    const argv = ['pkg', 'rquery', '-U', '%v', pkg];
    const result = await tools.run(argv, { query: true });
    const versions = result.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    if (result.code !== 0 && (versions.length > 0 || result.stderr.trim() !== '')) throw commandFailed(argv, result);
    return versions.sort((a, b) => compareFreebsd(b, a));
  }

  /** Throws a UserError naming what is offered when the repositories cannot give the target. */
  async function checkInstallable(pkg: string, target: InstallTarget): Promise<void> {
    const versions = await offered(pkg);
    if (versions.length === 0) throw new UserError(`no pkg repository offers ${pkg} (pkg rquery): is it spelt right, and is the catalogue up to date (pkg update)?`);
    if (target.kind === 'version' && !versions.some((v) => compareFreebsdToWanted(v, target.version) === 0)) {
      throw new UserError(`no pkg repository offers ${pkg} ${target.version} (offered: ${versions.join(', ')})`);
    }
  }

  return {
    name: 'pkgng',
    scheme: 'freebsd',
    checkVersion: checkFreebsdVersion,
    compareToWanted: compareFreebsdToWanted,
    status,
    async latestAvailable(pkg: string): Promise<string | undefined> {
      return (await offered(pkg))[0];
    },
    checkInstallable,
    async install(pkg: string, target: InstallTarget): Promise<void> {
      if (target.kind === 'version') await checkInstallable(pkg, target);
      await tools.runChecked(['pkg', 'install', '-y', pkg]);
    },
    async upgrade(pkg: string, target: InstallTarget): Promise<void> {
      if (target.kind === 'version') await checkInstallable(pkg, target);
      await tools.runChecked(['pkg', 'upgrade', '-y', pkg]);
    },
    async downgrade(pkg: string, version: string): Promise<void> {
      // pkg upgrade never goes down; -f reinstalls the package from the repository, at its version.
      await checkInstallable(pkg, { kind: 'version', version });
      await tools.runChecked(['pkg', 'install', '-f', '-y', pkg]);
    },
    async uninstall(pkg: string): Promise<void> {
      checkName(pkg);
      await tools.runChecked(['pkg', 'delete', '-y', pkg]);
    },
    async purge(pkg: string): Promise<void> {
      // pkg keeps no configuration files apart from the package (only edited ones stay on disk).
      checkName(pkg);
      await tools.runChecked(['pkg', 'delete', '-y', pkg]);
    },
  };
}
