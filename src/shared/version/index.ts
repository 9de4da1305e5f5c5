// Version comparison shared by the core (`govern versioncmp`, the template helper `versioncmp`)
// and the pkg runner. Three schemes, each as package-type.txt specifies it:
//   debian  - Debian Policy (epoch, upstream version, revision), as dpkg compares them
//   rpm     - rpmvercmp on epoch, version and release, with modern rpm's ~ and ^
//   generic - the Puppet-style VersionCmp(a, b, ignoreTrailingZeroes)
//   pacman  - libalpm's vercmp on epoch, pkgver and pkgrel (Arch Linux)
//   freebsd - FreeBSD's pkg version -t on PORTVERSION_PORTREVISION,PORTEPOCH
import { compareDebian } from './debian.js';
import { UserError } from '../errors.js';
import { checkFreebsdVersion, compareFreebsd } from './freebsd.js';
import { compareGeneric } from './generic.js';
import { checkPacmanVersion, comparePacman } from './pacman.js';
import { compareRpm } from './rpm.js';


export type VersionScheme = 'debian' | 'rpm' | 'generic' | 'pacman' | 'freebsd';

export const VERSION_SCHEMES: readonly VersionScheme[] = ['debian', 'rpm', 'generic', 'pacman', 'freebsd'];

export type Ordering = -1 | 0 | 1;

export interface CompareOptions {
  /** Generic scheme only: `1.0.0` equals `1.0` (trailing `.0` segments before the first `-` are dropped). */
  ignoreTrailingZeroes?: boolean;
}

/** -1 when a is older than b, 0 when they are the same version, 1 when a is newer. Throws a UserError. */
export function compareVersions(scheme: VersionScheme, a: string, b: string, options: CompareOptions = {}): Ordering {
  if (options.ignoreTrailingZeroes && scheme !== 'generic') {
    throw new UserError(`ignoring trailing zeroes applies to the generic scheme only, not ${scheme}`);
  }
  switch (scheme) {
    case 'debian':
      return compareDebian(a, b);
    case 'rpm':
      return compareRpm(a, b);
    case 'pacman':
      checkPacmanVersion(a);
      checkPacmanVersion(b);
      return comparePacman(a, b);
    case 'freebsd':
      checkFreebsdVersion(a);
      checkFreebsdVersion(b);
      return compareFreebsd(a, b);
    case 'generic':
      return compareGeneric(a, b, options.ignoreTrailingZeroes ?? false);
    default:
      throw new UserError(`unknown version scheme ${JSON.stringify(scheme)} (known: ${VERSION_SCHEMES.join(', ')})`);
  }
}

export function isVersionScheme(value: string): value is VersionScheme {
  return (VERSION_SCHEMES as readonly string[]).includes(value);
}
