// Debian versions, as the Debian Policy Manual (section 5.6.12) defines them and dpkg compares them:
// [epoch:]upstream_version[-debian_revision]. Written from the policy text; the tests check it
// against dpkg's own test vectors and against `dpkg --compare-versions`.
import { UserError } from '../errors.js';
import { sign } from './sign.js';

export interface DebianVersion {
  epoch: number;
  upstream: string;
  /** Empty when the version has no hyphen; then it compares equal to "0", as in dpkg. */
  revision: string;
}

// dpkg keeps the epoch in an int.
const MAX_EPOCH = 2 ** 31 - 1;
const UPSTREAM_CHAR = /^[A-Za-z0-9.+~:-]$/;
const REVISION_CHAR = /^[A-Za-z0-9.+~]$/;

/**
 * Parses a version the way dpkg does: surrounding whitespace is ignored; the epoch is everything
 * before the first colon, the revision everything after the last hyphen.
 *
 * Rejected (a UserError): what dpkg rejects (empty, embedded spaces, an empty or
 * non-numeric or too big epoch, nothing after the colon, an empty upstream version or revision) and the
 * characters Policy says a version must not contain, on which dpkg only warns. Accepted, as dpkg
 * does: an upstream version that does not start with a digit (Policy says "should").
 */
export function parseDebianVersion(input: string): DebianVersion {
  const text = input.trim();
  const bad = (why: string) => new UserError(`invalid Debian version ${JSON.stringify(input)}: ${why}`);
  if (text === '') throw bad('it is empty');
  if (/\s/.test(text)) throw bad('it contains whitespace');

  let epoch = 0;
  let rest = text;
  const colon = text.indexOf(':');
  if (colon >= 0) {
    const epochText = text.slice(0, colon);
    if (epochText === '') throw bad('the epoch before ":" is empty');
    if (!/^[0-9]+$/.test(epochText)) throw bad(`the epoch ${JSON.stringify(epochText)} is not a non-negative number`);
    epoch = Number(epochText);
    if (epoch > MAX_EPOCH) throw bad(`the epoch ${epochText} is too big`);
    rest = text.slice(colon + 1);
    if (rest === '') throw bad('nothing follows the epoch');
  }

  const hyphen = rest.lastIndexOf('-');
  const upstream = hyphen >= 0 ? rest.slice(0, hyphen) : rest;
  const revision = hyphen >= 0 ? rest.slice(hyphen + 1) : '';
  if (upstream === '') throw bad('the upstream version is empty');
  if (hyphen >= 0 && revision === '') throw bad('the revision after "-" is empty');
  for (const ch of upstream) {
    if (!UPSTREAM_CHAR.test(ch)) throw bad(`character ${JSON.stringify(ch)} is not allowed in the upstream version`);
  }
  for (const ch of revision) {
    if (!REVISION_CHAR.test(ch)) throw bad(`character ${JSON.stringify(ch)} is not allowed in the revision`);
  }
  return { epoch, upstream, revision };
}

export function compareDebian(a: string, b: string): -1 | 0 | 1 {
  return compareParsedDebian(parseDebianVersion(a), parseDebianVersion(b));
}

export function compareParsedDebian(a: DebianVersion, b: DebianVersion): -1 | 0 | 1 {
  if (a.epoch !== b.epoch) return a.epoch < b.epoch ? -1 : 1;
  return compareDebianFragment(a.upstream, b.upstream) || compareDebianFragment(a.revision, b.revision);
}

/**
 * Sort weight of one character in a non-digit run: "~" before the end of the string, the end
 * before letters, letters (in ASCII order) before every other character (in ASCII order).
 */
function weight(text: string, i: number): number {
  if (i >= text.length) return 0;
  const ch = text[i];
  if (ch === '~') return -1;
  const code = ch.charCodeAt(0);
  if (/[A-Za-z]/.test(ch)) return code;
  return code + 256;
}

const isDigit = (text: string, i: number) => i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57;

/** Policy's comparison of an upstream version or a revision: alternate non-digit and digit runs. */
export function compareDebianFragment(a: string, b: string): -1 | 0 | 1 {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    // The non-digit run, character by character.
    while ((i < a.length && !isDigit(a, i)) || (j < b.length && !isDigit(b, j))) {
      const wa = isDigit(a, i) ? 0 : weight(a, i);
      const wb = isDigit(b, j) ? 0 : weight(b, j);
      if (wa !== wb) return sign(wa - wb);
      i++;
      j++;
    }
    // The digit run, as a number: leading zeros do not count, then the longer run is bigger,
    // then the first differing digit decides.
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    let firstDifference = 0;
    while (isDigit(a, i) && isDigit(b, j)) {
      if (firstDifference === 0) firstDifference = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a, i)) return 1;
    if (isDigit(b, j)) return -1;
    if (firstDifference !== 0) return sign(firstDifference);
  }
  return 0;
}

