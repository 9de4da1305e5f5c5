// RPM versions: [epoch:]version[-release], compared as rpm does (rpmvercmp on each part), with
// modern rpm's "~" (sorts before anything, even the end) and "^" (sorts after the end, before
// anything else). Written from rpm's documented behaviour; the tests check it against rpm's own
// test vectors (tests/rpmvercmp.at) and against rpm's Lua rpm.vercmp.
import { UserError } from '../errors.js';

export interface RpmVersion {
  /** Absent epoch compares as 0. */
  epoch: number;
  version: string;
  /** Undefined when the string has no release. */
  release?: string;
  /** Whether the string gave an epoch ("0:1.0" does, "1.0" does not). */
  hasEpoch: boolean;
}

// Characters rpmbuild accepts in Version and Release (less its macro characters %{}).
const PART = /^[A-Za-z0-9._+~^]+$/;

/** Parses E:V-R: the epoch is a leading run of digits followed by ":", the release follows the last "-". */
export function parseRpmVersion(input: string): RpmVersion {
  const bad = (why: string) => new UserError(`invalid RPM version ${JSON.stringify(input)}: ${why}`);
  if (input === '') throw bad('it is empty');
  let epoch = 0;
  let rest = input;
  let hasEpoch = false;
  const epochMatch = /^([0-9]*):/.exec(input);
  if (epochMatch) {
    if (epochMatch[1] !== '') epoch = Number(epochMatch[1]);
    if (!Number.isSafeInteger(epoch)) throw bad('the epoch is too big');
    rest = input.slice(epochMatch[0].length);
    hasEpoch = true;
  }
  const hyphen = rest.lastIndexOf('-');
  const version = hyphen >= 0 ? rest.slice(0, hyphen) : rest;
  const release = hyphen >= 0 ? rest.slice(hyphen + 1) : undefined;
  if (version === '') throw bad('the version is empty');
  if (!PART.test(version)) throw bad(`the version ${JSON.stringify(version)} contains ${describeBad(version)}`);
  if (release !== undefined) {
    if (release === '') throw bad('the release after "-" is empty');
    if (!PART.test(release)) throw bad(`the release ${JSON.stringify(release)} contains ${describeBad(release)}`);
  }
  return { epoch, version, release, hasEpoch };
}

function describeBad(part: string): string {
  const ch = [...part].find((c) => !PART.test(c)) ?? '';
  return `the character ${JSON.stringify(ch)}, which is not allowed (letters, digits and . _ + ~ ^)`;
}

export function compareRpm(a: string, b: string): -1 | 0 | 1 {
  return compareParsedRpm(parseRpmVersion(a), parseRpmVersion(b));
}

/** Epoch (absent is 0), then version, then release (absent sorts first), as rpm's rpm.vercmp. */
export function compareParsedRpm(a: RpmVersion, b: RpmVersion): -1 | 0 | 1 {
  if (a.epoch !== b.epoch) return a.epoch < b.epoch ? -1 : 1;
  return rpmvercmp(a.version, b.version) || rpmvercmp(a.release ?? '', b.release ?? '');
}

/**
 * An installed package's full E:V-R against the version a user asked for, comparing only the
 * parts the user gave: "1.0" matches 1:1.0-3, "1.0-3" matches 1:1.0-3, "0:1.0" does not. This is
 * how dnf itself matches `dnf install NAME-1.0`, so the desired state can be checked the same way.
 */
export function compareRpmToWanted(installed: string, wanted: string): -1 | 0 | 1 {
  const have = parseRpmVersion(installed);
  const want = parseRpmVersion(wanted);
  if (want.hasEpoch && have.epoch !== want.epoch) return have.epoch < want.epoch ? -1 : 1;
  const byVersion = rpmvercmp(have.version, want.version);
  if (byVersion !== 0 || want.release === undefined) return byVersion;
  return rpmvercmp(have.release ?? '', want.release);
}

const isAlnum = (ch: string | undefined) => ch !== undefined && /^[A-Za-z0-9]$/.test(ch);
const isDigitChar = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';
const isAlpha = (ch: string | undefined) => ch !== undefined && /^[A-Za-z]$/.test(ch);

/**
 * rpm's segment comparison of one version or release string. Separators (anything but letters,
 * digits, "~" and "^") only delimit segments; a digit segment beats a letter segment; digit
 * segments compare as numbers, letter segments in ASCII order.
 */
export function rpmvercmp(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    while (i < a.length && !isAlnum(a[i]) && a[i] !== '~' && a[i] !== '^') i++;
    while (j < b.length && !isAlnum(b[j]) && b[j] !== '~' && b[j] !== '^') j++;

    // "~" sorts before everything, the end of the string included.
    if (a[i] === '~' || b[j] === '~') {
      if (a[i] !== '~') return 1;
      if (b[j] !== '~') return -1;
      i++;
      j++;
      continue;
    }
    // "^" sorts after the end of the string but before any other segment.
    if (a[i] === '^' || b[j] === '^') {
      if (i >= a.length) return -1;
      if (j >= b.length) return 1;
      if (a[i] !== '^') return 1;
      if (b[j] !== '^') return -1;
      i++;
      j++;
      continue;
    }
    if (i >= a.length || j >= b.length) break;

    const numeric = isDigitChar(a[i]);
    const inSegment = numeric ? isDigitChar : isAlpha;
    const startA = i;
    const startB = j;
    while (i < a.length && inSegment(a[i])) i++;
    while (j < b.length && inSegment(b[j])) j++;
    let segA = a.slice(startA, i);
    let segB = b.slice(startB, j);
    // Segments of different kinds: the numeric one is newer.
    if (segB === '') return numeric ? 1 : -1;
    if (numeric) {
      segA = segA.replace(/^0+/, '');
      segB = segB.replace(/^0+/, '');
      if (segA.length !== segB.length) return segA.length < segB.length ? -1 : 1;
    }
    if (segA !== segB) return segA < segB ? -1 : 1;
  }
  if (i >= a.length && j >= b.length) return 0;
  // The string with something left is newer.
  return i < a.length ? 1 : -1;
}
