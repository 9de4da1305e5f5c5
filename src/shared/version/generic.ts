// The generic comparison of package-type.txt (Puppet's versioncmp): split into "-", ".", digit runs
// and other runs; compare the tokens left to right; if all tokens tie, compare the whole strings.
import { UserError } from '../errors.js';

const TOKEN = /[-.]|[0-9]+|[^-.0-9]+/g;

export function compareGeneric(a: string, b: string, ignoreTrailingZeroes = false): -1 | 0 | 1 {
  for (const v of [a, b]) {
    if (v === '') throw new UserError('invalid version "": it is empty');
  }
  const left = ignoreTrailingZeroes ? dropTrailingZeroes(a) : a;
  const right = ignoreTrailingZeroes ? dropTrailingZeroes(b) : b;
  const tokensA = left.match(TOKEN) ?? [];
  const tokensB = right.match(TOKEN) ?? [];
  for (let k = 0; k < tokensA.length && k < tokensB.length; k++) {
    const x = tokensA[k];
    const y = tokensB[k];
    if (x === y) continue;
    // A hyphen loses to anything, then a dot loses to anything but a hyphen.
    if (x === '-') return -1;
    if (y === '-') return 1;
    if (x === '.') return -1;
    if (y === '.') return 1;
    if (/^[0-9]/.test(x) && /^[0-9]/.test(y)) {
      // A leading zero makes it a string comparison ("01" < "1"), otherwise numbers.
      if (x.startsWith('0') || y.startsWith('0')) return compareStrings(x, y);
      return compareNumbers(x, y);
    }
    return compareStrings(x.toUpperCase(), y.toUpperCase());
  }
  return compareStrings(left, right);
}

/**
 * "1.0.0-rc1" -> "1-rc1", "2.0.0" -> "2": trailing ".0" segments before the first "-" go.
 * Puppet's regular expression strips any trailing run of "." and "0" (so "1.10" would become
 * "1.1"); the seed says ".0 segments", and that is what this removes.
 */
export function dropTrailingZeroes(version: string): string {
  const hyphen = version.indexOf('-');
  const head = hyphen >= 0 ? version.slice(0, hyphen) : version;
  const tail = hyphen >= 0 ? version.slice(hyphen) : '';
  return head.replace(/(\.0+)+$/, '') + tail;
}

function compareNumbers(x: string, y: string): -1 | 0 | 1 {
  const a = BigInt(x);
  const b = BigInt(y);
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareStrings(x: string, y: string): -1 | 0 | 1 {
  return x < y ? -1 : x > y ? 1 : 0;
}
