// What the pkg runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/pkg.md).
import type { RunnerDescription } from '../../shared/description.js';
import { PACKAGE_NAME_CHARS, VERSION_CHARS } from '../../shared/validate.js';

/** Versions as every provider writes them: FreeBSD's adds `,` before its epoch (1.0_1,1). */
const PACKAGE_VERSION_CHARS = `${VERSION_CHARS.slice(0, -1)},-`;

/** What ensure (and state) take besides a version. */
export const ENSURE_WORDS = ['present', 'installed', 'absent', 'removed', 'purged', 'latest'] as const;
/** A version asked for: Debian, RPM and FreeBSD versions start with a digit, after an optional epoch. */
const VERSION = { chars: PACKAGE_VERSION_CHARS, pattern: '([0-9]+:)?[0-9].*' } as const;
const ENSURE = {
  type: 'string',
  values: ENSURE_WORDS,
  ...VERSION,
  what: 'one of present, installed, absent, removed, purged, latest, or a version',
} as const;

export const description = {
  help: 'a package: installed, removed, at the latest version or at a version, with APT, DNF, pacman, zypper or FreeBSD\'s pkg',
  name: {
    type: 'string',
    chars: PACKAGE_NAME_CHARS,
    what: 'a package name (letters, digits and . _ + : ~ -, not starting with -)',
    help: 'the package name as the package manager knows it (libc6:amd64 names an architecture for apt)',
  },
  keys: {
    ensure: { ...ENSURE, default: 'present', help: 'present, absent (its configuration files are kept), purged (removed with its configuration files: apt-get purge, pacman -Rn; dnf and zypper: as absent, since rpm keeps none apart), latest, or a version; installed is present, removed is absent' },
    state: { ...ENSURE, help: 'the same as ensure, in the words of govern\'s README (installed, removed)' },
    provider: { type: 'enum', values: ['apt', 'dnf', 'pacman', 'zypper', 'pkgng'], help: 'the package manager; chosen from the os/family fact or the tools on PATH when not given' },
  },
  rules: [{ exclusive: ['ensure', 'state'] }],
  signals: ['refresh'],
  // The sources first: a repository that changed has its index refreshed before any package is checked.
  autorequire: [
    { runner: 'apt_repository', every: true },
    { runner: 'dnf_repository', every: true },
  ],
} as const satisfies RunnerDescription;
