// The DNF provider (package-type.txt, "DNF Provider"): rpm -q for the status, dnf to install,
// upgrade, downgrade and remove.
import { compareRpmToWanted, compareRpm, parseRpmVersion } from '../../shared/version/rpm.js';
import type { PackageStatus } from './decide.js';
import type { InstallTarget, PackageProvider } from './provider.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { commandFailed, PackageTools } from '../lib/package-tools.js';

/** The seed's NEVRA query format, one line per installed instance (installonly packages can have several). */
export const RPM_QUERY_FORMAT = '%{NAME} %|EPOCH?{%{EPOCH}}:{0}| %{VERSION} %{RELEASE} %{ARCH}\n';

export function dnfProvider(context: ProviderContext): PackageProvider {
  const tools = new PackageTools(context);

  const status = (pkg: string) => rpmStatus(tools, pkg);

  async function install(pkg: string, target: InstallTarget): Promise<void> {
    // dnf separates name and version with "-" (NAME-VERSION, NAME-VERSION-RELEASE, NAME-EPOCH:VERSION-RELEASE).
    await tools.runChecked(['dnf', 'install', '-y', target.kind === 'version' ? `${pkg}-${target.version}` : pkg]);
  }

  return {
    name: 'dnf',
    scheme: 'rpm',
    checkVersion(version: string): void {
      parseRpmVersion(version);
    },
    compareToWanted: compareRpmToWanted,
    status,
    async latestAvailable(pkg: string): Promise<string | undefined> {
      const result = await tools.runChecked(
        ['dnf', '-q', 'repoquery', '--available', '--latest-limit=1', '--queryformat', '%{epoch}:%{version}-%{release}\n', pkg],
        { query: true },
      );
      return newest(result.stdout.split('\n').map((l) => l.trim()).filter((l) => /^[0-9]+:/.test(l)));
    },
    async checkInstallable(pkg: string, target: InstallTarget): Promise<void> {
      const spec = target.kind === 'version' ? `${pkg}-${target.version}` : pkg;
      const result = await tools.runChecked(['dnf', '-q', 'repoquery', '--available', '--queryformat', '%{name}\n', spec], { query: true });
      if (result.stdout.trim() === '') throw new UserError(`dnf knows no package ${spec} in its repositories (dnf repoquery --available): is it spelt right, and in a configured repository?`);
    },
    install,
    async upgrade(pkg: string, target: InstallTarget): Promise<void> {
      // `dnf install NAME` leaves an installed package alone ("already installed"), so latest needs `dnf upgrade`.
      if (target.kind === 'version') return install(pkg, target);
      await tools.runChecked(['dnf', 'upgrade', '-y', pkg]);
    },
    async downgrade(pkg: string, version: string): Promise<void> {
      await tools.runChecked(['dnf', 'downgrade', '-y', `${pkg}-${version}`]);
    },
    async uninstall(pkg: string): Promise<void> {
      await tools.runChecked(['dnf', 'remove', '-y', pkg]);
    },
    async purge(pkg: string): Promise<void> {
      // rpm removes a package's configuration with it (keeping only edited ones as .rpmsave).
      await tools.runChecked(['dnf', 'remove', '-y', pkg]);
    },
  };
}

/** What rpm's database says of a package: the status of every rpm-based provider (dnf, zypper). */
export async function rpmStatus(tools: PackageTools, pkg: string): Promise<PackageStatus> {
  const argv = ['rpm', '-q', pkg, '--queryformat', RPM_QUERY_FORMAT];
  const result = await tools.run(argv, { query: true });
  if (result.code !== 0) {
    if (/is not installed/.test(result.stdout + result.stderr)) return { installed: false };
    throw commandFailed(argv, result);
  }
  const status = parseRpmQuery(result.stdout);
  if (!status.installed) throw commandFailed(argv, result);
  return status;
}

/**
 * `NAME EPOCH VERSION RELEASE ARCH` lines. The version is VERSION-RELEASE, as the seed reports it;
 * the full version keeps a non-zero epoch. Several instances (kernels): the newest.
 */
export function parseRpmQuery(stdout: string): PackageStatus {
  const found: PackageStatus[] = [];
  for (const line of stdout.split('\n')) {
    const fields = line.trim().split(' ');
    if (fields.length !== 5) continue;
    const [, epoch, version, release, arch] = fields;
    const vr = `${version}-${release}`;
    found.push({ installed: true, version: vr, fullVersion: epoch === '0' ? vr : `${epoch}:${vr}`, arch });
  }
  found.sort((a, b) => (a.installed && b.installed ? compareRpm(a.fullVersion, b.fullVersion) : 0));
  return found.at(-1) ?? { installed: false };
}

function newest(versions: string[]): string | undefined {
  return [...versions].sort(compareRpm).at(-1);
}
