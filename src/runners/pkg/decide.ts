// The pkg runner's decision, pure: desired ensure + the package's current status -> one action and
// its message. It holds package-type.txt's two-phase apply logic, decision table, noop messages and
// desired-state check.
import type { Ensure } from './properties.js';

export type PackageStatus =
  | {
      installed: false;
      /** Why a package the database knows counts as absent (`config-files`, `half-installed`...). */
      state?: string;
      /** The version the database still records for such a package. */
      version?: string;
    }
  | {
      installed: true;
      /** The installed version as the provider reports it (apt: dpkg's version; dnf: VERSION-RELEASE). */
      version: string;
      /** The version to compare and to show: with the epoch when it is not 0. */
      fullVersion: string;
      arch?: string;
    };

export type Action =
  | { kind: 'none' }
  | { kind: 'install' }
  | { kind: 'install-latest' }
  | { kind: 'upgrade-latest' }
  | { kind: 'install-version'; version: string }
  | { kind: 'upgrade'; version: string }
  | { kind: 'downgrade'; version: string }
  | { kind: 'uninstall' }
  | { kind: 'purge' };

export interface Decision {
  action: Action;
  /** For an action: the seed's noop message ("Would have upgraded to 1.1-1"). For none: why nothing is to be done. */
  message: string;
}

/** The provider's comparison of an installed full version with the version asked for: -1 older, 0 same, 1 newer. */
export type CompareToWanted = (installed: string, wanted: string) => -1 | 0 | 1;

export interface DecideOptions {
  /**
   * The newest version the package manager offers, when known. Only noop asks for it: with it,
   * `ensure = latest` on a package already at that version reports no change. A real run always
   * calls the upgrade (the seed: the package manager decides what latest is).
   */
  latestAvailable?: string;
}

export function decide(ensure: Ensure, status: PackageStatus, compare: CompareToWanted, options: DecideOptions = {}): Decision {
  // Phase 1: latest.
  if (ensure.kind === 'latest') {
    if (!status.installed) return { action: { kind: 'install-latest' }, message: 'Would have installed latest' };
    const latest = options.latestAvailable;
    if (latest !== undefined && compare(status.fullVersion, latest) >= 0) {
      return { action: { kind: 'none' }, message: `already at the latest version ${status.fullVersion}` };
    }
    return { action: { kind: 'upgrade-latest' }, message: 'Would have upgraded to latest' };
  }
  if (isDesiredState(ensure, status, compare)) return { action: { kind: 'none' }, message: inSyncMessage(status) };

  // Phase 2: the other ensure values.
  switch (ensure.kind) {
    case 'absent':
      return { action: { kind: 'uninstall' }, message: 'Would have uninstalled' };
    case 'purged':
      return { action: { kind: 'purge' }, message: status.installed ? 'Would have purged' : `Would have purged the configuration files left (${status.state})` };
    case 'present':
      // Not in the desired state, so absent.
      return { action: { kind: 'install' }, message: 'Would have installed' };
    case 'version': {
      const version = ensure.version;
      if (!status.installed) return { action: { kind: 'install-version', version }, message: `Would have installed version ${version}` };
      if (compare(status.fullVersion, version) < 0) return { action: { kind: 'upgrade', version }, message: `Would have upgraded to ${version}` };
      return { action: { kind: 'downgrade', version }, message: `Would have downgraded to ${version}` };
    }
  }
}

/** The seed's isDesiredState: latest cannot be verified, so it only has to be installed. */
export function isDesiredState(ensure: Ensure, status: PackageStatus, compare: CompareToWanted): boolean {
  switch (ensure.kind) {
    case 'present':
    case 'latest':
      return status.installed;
    case 'absent':
      return !status.installed;
    case 'purged':
      // Nothing left in the package database: no configuration files (dpkg's `rc`), no half-removed package.
      return !status.installed && status.state === undefined;
    case 'version':
      return status.installed && compare(status.fullVersion, ensure.version) === 0;
  }
}

function inSyncMessage(status: PackageStatus): string {
  return status.installed ? `already installed ${status.fullVersion}` : 'already absent';
}

/** Compares two full versions of one package format. */
export type CompareVersions = (a: string, b: string) => -1 | 0 | 1;

/** What a real run did, from the status before and after: "upgraded from 1.0-1 to 1.1-1". */
export function describeChange(before: PackageStatus, after: PackageStatus, compare: CompareVersions): string {
  if (!before.installed && after.installed) return `installed ${after.fullVersion}`;
  if (before.installed && !after.installed) return `uninstalled ${before.fullVersion}`;
  if (!before.installed && !after.installed && before.state !== undefined && after.state === undefined) return `purged the configuration files left (${before.state})`;
  if (before.installed && after.installed) {
    if (before.fullVersion === after.fullVersion) return `already installed ${after.fullVersion}`;
    const direction = compare(after.fullVersion, before.fullVersion) > 0 ? 'upgraded' : 'downgraded';
    return `${direction} from ${before.fullVersion} to ${after.fullVersion}`;
  }
  return 'already absent';
}

/** Whether two statuses describe the same installed version (or both absent). */
export function sameStatus(a: PackageStatus, b: PackageStatus): boolean {
  if (a.installed && b.installed) return a.fullVersion === b.fullVersion && a.arch === b.arch;
  return !a.installed && !b.installed && a.state === b.state;
}
