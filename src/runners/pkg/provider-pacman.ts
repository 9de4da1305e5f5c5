// The pacman provider (Arch Linux): `pacman -Q` for the status, `pacman -Sl` for what the sync
// repositories offer, `pacman -S REPO/NAME` to install, upgrade and downgrade, `pacman -R` to remove.
//
// Every install names the repository: `pacman -S NAME` would also take a group name (`base-devel`
// installs a whole group), and a version is installed from the repository that offers it. Like
// apt-get update for apt, refreshing the sync databases (`pacman -Sy`) is left to the host: Arch
// does not support installing from freshly synced databases without a full upgrade.
import { UserError } from '../../shared/errors.js';
import { checkPacmanVersion, comparePacman } from '../../shared/version/pacman.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import type { PackageStatus } from './decide.js';
import type { InstallTarget, PackageProvider } from './provider.js';
import { commandFailed, PackageTools } from '../lib/package-tools.js';

/** What makepkg accepts as a pkgname: lower-case letters, digits and @._+-, not starting with - or . */
const PACKAGE_NAME = /^[a-z0-9@_+][a-z0-9@._+-]*$/;

export interface SyncEntry {
  repo: string;
  version: string;
}

export function pacmanProvider(context: ProviderContext): PackageProvider {
  const tools = new PackageTools(context);

  function checkName(pkg: string): void {
    if (!PACKAGE_NAME.test(pkg)) throw new UserError(`invalid pacman package name ${JSON.stringify(pkg)}: lower-case letters, digits and @._+- only, not starting with - or .`);
  }

  async function status(pkg: string): Promise<PackageStatus> {
    checkName(pkg);
    const argv = ['pacman', '-Q', '--', pkg];
    const result = await tools.run(argv, { query: true });
    if (result.code !== 0) {
      if (/was not found/.test(result.stderr)) return { installed: false };
      throw commandFailed(argv, result);
    }
    return parsePacmanQuery(result.stdout, pkg);
  }

  /** The sync repositories' entries for the package, in pacman.conf's order (the first one is what `pacman -S` takes). */
  async function offered(pkg: string): Promise<SyncEntry[]> {
    checkName(pkg);
    const result = await tools.runChecked(['pacman', '-Sl'], { query: true });
    return parseSyncList(result.stdout, pkg);
  }

  /** The sync repository entry `pacman -S` is to take for the target; an error naming what is offered when none fits. */
  async function pick(pkg: string, target: InstallTarget): Promise<SyncEntry> {
    const entries = await offered(pkg);
    if (entries.length === 0) throw new UserError(`no pacman sync repository offers ${pkg} (pacman -Sl): is it spelt right, and have the databases been synced (pacman -Sy)?`);
    if (target.kind !== 'version') return entries[0];
    const match = entries.find((e) => comparePacman(e.version, target.version) === 0);
    if (match) return match;
    const list = entries.map((e) => `${e.version} in ${e.repo}`).join(', ');
    throw new UserError(`no pacman sync repository offers ${pkg} ${target.version} (offered: ${list})`);
  }

  async function install(pkg: string, target: InstallTarget): Promise<void> {
    const entry = await pick(pkg, target);
    await tools.runChecked(['pacman', '-S', '--noconfirm', '--noprogressbar', '--', `${entry.repo}/${pkg}`]);
  }

  return {
    name: 'pacman',
    scheme: 'pacman',
    checkVersion: checkPacmanVersion,
    compareToWanted: comparePacman,
    status,
    async latestAvailable(pkg: string): Promise<string | undefined> {
      return (await offered(pkg))[0]?.version;
    },
    async checkInstallable(pkg: string, target: InstallTarget): Promise<void> {
      await pick(pkg, target);
    },
    install,
    upgrade: install,
    downgrade: (pkg, version) => install(pkg, { kind: 'version', version }),
    async uninstall(pkg: string): Promise<void> {
      checkName(pkg);
      await tools.runChecked(['pacman', '-R', '--noconfirm', '--noprogressbar', '--', pkg]);
    },
    async purge(pkg: string): Promise<void> {
      checkName(pkg);
      // -n: no .pacsave copies of the package's configuration files are kept.
      await tools.runChecked(['pacman', '-Rn', '--noconfirm', '--noprogressbar', '--', pkg]);
    },
  };
}

/**
 * `pacman -Q NAME` prints "NAME VERSION". It also answers for a package that only provides NAME,
 * under that package's own name: that is not NAME installed.
 */
export function parsePacmanQuery(stdout: string, pkg: string): PackageStatus {
  for (const line of stdout.split('\n')) {
    const [name, version] = line.trim().split(' ');
    if (name === pkg && version) return { installed: true, version, fullVersion: version };
  }
  return { installed: false };
}

/** `pacman -Sl` lines: "REPO NAME VERSION [installed]". */
export function parseSyncList(stdout: string, pkg: string): SyncEntry[] {
  const entries: SyncEntry[] = [];
  for (const line of stdout.split('\n')) {
    const [repo, name, version] = line.trim().split(/\s+/);
    if (name === pkg && version) entries.push({ repo, version });
  }
  return entries;
}
