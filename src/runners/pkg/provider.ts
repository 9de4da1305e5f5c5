// What a package provider does (package-type.txt, "Provider Interface"). One file per tool
// implements it (provider-apt.ts, provider-dnf.ts); providers.ts lists them.
import type { VersionScheme } from '../../shared/version/index.js';
import type { CompareToWanted, PackageStatus } from './decide.js';
import type { ProviderName } from './properties.js';

/** What to install: any version (ensure = present), the newest, or one version. */
export type InstallTarget = { kind: 'any' } | { kind: 'latest' } | { kind: 'version'; version: string };

export interface PackageProvider {
  readonly name: ProviderName;
  /** How two full versions of this package format compare. */
  readonly scheme: VersionScheme;
  /** Throws a UserError when the version is not valid for this package format. */
  checkVersion(version: string): void;
  /** An installed full version against the version asked for (the decision and the desired-state check). */
  compareToWanted: CompareToWanted;
  status(pkg: string): Promise<PackageStatus>;
  /** The version the package manager would install as the newest, if it knows the package. */
  latestAvailable(pkg: string): Promise<string | undefined>;
  /** Noop's check of what install would find: a UserError when the configured sources cannot give it. */
  checkInstallable(pkg: string, target: InstallTarget): Promise<void>;
  install(pkg: string, target: InstallTarget): Promise<void>;
  upgrade(pkg: string, target: InstallTarget): Promise<void>;
  downgrade(pkg: string, version: string): Promise<void>;
  uninstall(pkg: string): Promise<void>;
  /** Uninstalls it with its configuration files (dnf, which keeps none of them apart: as uninstall). */
  purge(pkg: string): Promise<void>;
}
