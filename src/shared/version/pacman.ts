// Arch Linux package versions: [epoch:]pkgver[-pkgrel], compared as libalpm's alpm_pkg_vercmp
// (pacman's `vercmp`) does. Written from pacman's documented behaviour (vercmp(8)) and checked
// against the real `vercmp` in the tests. It differs from rpm's comparison: "~" and "^" are plain
// separators, a longer run of separators sorts newer, and a side without a pkgrel skips the
// pkgrel comparison ("1.0" equals "1.0-3").
import { UserError } from '../errors.js';

export interface PacmanVersion {
  epoch: string;
  version: string;
  release?: string;
}

/** Splits E:V-R as libalpm does: the epoch is a leading run of digits before ":", the release follows the last "-". */
export function splitPacmanVersion(input: string): PacmanVersion {
  const digits = /^[0-9]*/.exec(input)![0];
  let epoch = '0';
  let rest = input;
  if (input[digits.length] === ':') {
    if (digits !== '') epoch = digits;
    rest = input.slice(digits.length + 1);
  }
  const dash = rest.lastIndexOf('-');
  return dash < 0 ? { epoch, version: rest } : { epoch, version: rest.slice(0, dash), release: rest.slice(dash + 1) };
}

/**
 * Throws a UserError unless the version is one makepkg can produce: pkgver without whitespace,
 * ":", "/" or "-"; pkgrel digits with at most one dot; an optional numeric epoch.
 */
export function checkPacmanVersion(input: string): void {
  if (!/^([0-9]+:)?[!-~]+$/.test(input)) throw new UserError(`invalid pacman version ${JSON.stringify(input)}: expected [epoch:]pkgver[-pkgrel] in printable ASCII`);
  const { version, release } = splitPacmanVersion(input);
  if (version === '' || /[:/-]/.test(version)) throw new UserError(`invalid pacman version ${JSON.stringify(input)}: pkgver ${JSON.stringify(version)} must be non-empty, without ":", "/" or "-"`);
  if (release !== undefined && !/^[0-9]+(\.[0-9]+)?$/.test(release)) {
    throw new UserError(`invalid pacman version ${JSON.stringify(input)}: pkgrel ${JSON.stringify(release)} must be a number (1, 2.1)`);
  }
}

export function comparePacman(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  const x = splitPacmanVersion(a);
  const y = splitPacmanVersion(b);
  let ret = segmentCompare(x.epoch, y.epoch);
  if (ret === 0) ret = segmentCompare(x.version, y.version);
  if (ret === 0 && x.release !== undefined && y.release !== undefined) ret = segmentCompare(x.release, y.release);
  return ret;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string | undefined) => c !== undefined && /^[A-Za-z]$/.test(c);
const isAlnum = (c: string | undefined) => isDigit(c) || isAlpha(c);

/** libalpm's rpmvercmp: alternating runs of digits and letters, separated by anything else. */
function segmentCompare(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const segStartA = i;
    const segStartB = j;
    while (i < a.length && !isAlnum(a[i])) i++;
    while (j < b.length && !isAlnum(b[j])) j++;
    if (i >= a.length || j >= b.length) break;
    // Different lengths of separator: the longer one is newer.
    if (i - segStartA !== j - segStartB) return i - segStartA < j - segStartB ? -1 : 1;
    const numeric = isDigit(a[i]);
    const inRun = numeric ? isDigit : isAlpha;
    let endA = i;
    let endB = j;
    while (endA < a.length && inRun(a[endA])) endA++;
    while (endB < b.length && inRun(b[endB])) endB++;
    // The other side has a run of the other kind here: a number is newer than letters.
    if (endB === j) return numeric ? 1 : -1;
    let segA = a.slice(i, endA);
    let segB = b.slice(j, endB);
    if (numeric) {
      segA = segA.replace(/^0+/, '');
      segB = segB.replace(/^0+/, '');
      if (segA.length !== segB.length) return segA.length > segB.length ? 1 : -1;
    }
    if (segA !== segB) return segA < segB ? -1 : 1;
    i = endA;
    j = endB;
  }
  if (i >= a.length && j >= b.length) return 0;
  // What is left decides: a remaining run of letters never beats the end of the string.
  if ((i >= a.length && !isAlpha(b[j])) || isAlpha(a[i])) return -1;
  return 1;
}
