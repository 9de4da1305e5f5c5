// FreeBSD package versions: PORTVERSION[_PORTREVISION][,PORTEPOCH], compared as `pkg version -t`
// does. Written from the rules pkg documents for its comparison (and the Porter's Handbook's
// examples): the epoch decides first, then the port version, then the revision. The port version
// is a list of components; each component is a number, a letter (or word) and a patch level:
// - anything but letters, digits, `+` and `*` separates components, and separators collapse
//   (`10..1` is `10.1`, `1.0:2003` is `1.0.2003`);
// - a missing component counts as 0 (`1.2` is `1.2.0`);
// - a number without a letter sorts before the same number with one (`10 < 10a < 10b`);
// - a component that starts with a letter has the number -1 (`1.2.a1 < 1.2`, `a < 0`);
// - `pl`, `alpha`, `beta`, `pre` and `rc` start a component of their own (`10alpha` is `10.alpha`);
//   `pl` sorts before every letter, the others as their first letter (`pl11 < alpha3 < b`); any
//   other word counts by its first letter, case ignored (`1.d2 = 1.dev2 = 1.Development2`);
// - `*` is the smallest component of all (`2.* < 2pl1`);
// - `+` starts a block: two blocks compare component by component, and a side that has run out of
//   components in a block compares as 0 against the other.
import { UserError } from '../errors.js';
import { sign } from './sign.js';

export interface FreebsdVersion {
  version: string;
  revision?: string;
  epoch?: string;
}

/** Splits V_R,E: the revision follows the last `_`, the epoch the last `,` after it. */
export function splitFreebsdVersion(input: string): FreebsdVersion {
  const underscore = input.lastIndexOf('_');
  const head = underscore < 0 ? input : input.slice(0, underscore);
  const tail = underscore < 0 ? '' : input.slice(underscore + 1);
  const comma = underscore < 0 ? input.lastIndexOf(',') : tail.lastIndexOf(',');
  if (underscore < 0) return comma < 0 ? { version: input } : { version: input.slice(0, comma), epoch: input.slice(comma + 1) };
  return comma < 0 ? { version: head, revision: tail } : { version: head, revision: tail.slice(0, comma), epoch: tail.slice(comma + 1) };
}

/** Throws a UserError unless the version is PORTVERSION[_PORTREVISION][,PORTEPOCH], as the ports make them. */
export function checkFreebsdVersion(input: string): void {
  const bad = (why: string) => new UserError(`invalid FreeBSD package version ${JSON.stringify(input)}: ${why}`);
  const { version, revision, epoch } = splitFreebsdVersion(input);
  if (version === '') throw bad('the port version is empty');
  if (!/^[A-Za-z0-9.+]+$/.test(version)) throw bad(`the port version ${JSON.stringify(version)} may hold only letters, digits, "." and "+"`);
  if (revision !== undefined && !/^[0-9]+$/.test(revision)) throw bad(`the revision after "_" must be a number, not ${JSON.stringify(revision)}`);
  if (epoch !== undefined && !/^[0-9]+$/.test(epoch)) throw bad(`the epoch after "," must be a number, not ${JSON.stringify(epoch)}`);
}

/** -1, 0 or 1, as `pkg version -t A B` prints <, = or >. */
export function compareFreebsd(a: string, b: string): -1 | 0 | 1 {
  const x = splitFreebsdVersion(a);
  const y = splitFreebsdVersion(b);
  return (
    compareNumbers(number(x.epoch), number(y.epoch)) ||
    comparePortVersions(x.version, y.version) ||
    compareNumbers(number(x.revision), number(y.revision))
  );
}

/**
 * An installed version against a version asked for, on the parts the latter gives: without
 * `_REVISION` any revision matches, without `,EPOCH` any epoch (`1.2` is met by `1.2_3,1`).
 */
export function compareFreebsdToWanted(installed: string, wanted: string): -1 | 0 | 1 {
  const have = splitFreebsdVersion(installed);
  const want = splitFreebsdVersion(wanted);
  const haveEpoch = want.epoch === undefined ? 0 : number(have.epoch);
  return (
    compareNumbers(haveEpoch, number(want.epoch)) ||
    comparePortVersions(have.version, want.version) ||
    (want.revision === undefined ? 0 : compareNumbers(number(have.revision), number(want.revision)))
  );
}

const number = (digits: string | undefined): number => (digits === undefined || digits === '' ? 0 : Number.parseInt(digits, 10) || 0);
const compareNumbers = (a: number, b: number): -1 | 0 | 1 => sign(a - b);

interface Component {
  /** The number; -1 when the component starts with a letter, -2 for `*`. */
  n: number;
  /** The letter: 0 for none (or `pl`), 1 for a, 2 for b... */
  letter: number;
  /** The number after the letter: 0 without a letter, -1 for a letter without one. */
  patch: number;
}

/** `pl` sorts before every letter; the others as their first letter. */
const STAGES: [string, number][] = [
  ['pl', 0],
  ['alpha', 1],
  ['beta', 2],
  ['pre', 16],
  ['rc', 18],
];

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string | undefined) => c !== undefined && /^[A-Za-z]$/.test(c);

function comparePortVersions(a: string, b: string): -1 | 0 | 1 {
  if (a.toLowerCase() === b.toLowerCase()) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const inBlockA = i < a.length && a[i] !== '+';
    const inBlockB = j < b.length && b[j] !== '+';
    if (!inBlockA && !inBlockB) {
      // Both at a `+` (or the end): the next blocks.
      if (i < a.length) i++;
      if (j < b.length) j++;
      continue;
    }
    let x: Component = { n: 0, letter: 0, patch: 0 };
    let y: Component = { n: 0, letter: 0, patch: 0 };
    if (inBlockA) [x, i] = readComponent(a, i);
    if (inBlockB) [y, j] = readComponent(b, j);
    const result = compareNumbers(x.n, y.n) || compareNumbers(x.letter, y.letter) || compareNumbers(x.patch, y.patch);
    if (result !== 0) return result;
  }
  return 0;
}

/** The component at position `at`, and the position after it and the separators that follow. */
function readComponent(s: string, at: number): [Component, number] {
  let pos = at;
  const component: Component = { n: 0, letter: 0, patch: 0 };
  let startsWithLetter = false;
  if (isDigit(s[pos])) {
    const start = pos;
    while (isDigit(s[pos])) pos++;
    component.n = Number(s.slice(start, pos));
  } else if (s[pos] === '*') {
    component.n = -2;
    while (pos < s.length && s[pos] !== '+') pos++;
  } else {
    component.n = -1;
    startsWithLetter = true;
  }
  let hasPatch = false;
  if (isAlpha(s[pos])) {
    hasPatch = true;
    let word = true;
    const stage = isAlpha(s[pos + 1]) ? STAGES.find(([name]) => s.slice(pos, pos + name.length).toLowerCase() === name && !isAlpha(s[pos + name.length])) : undefined;
    if (stage && startsWithLetter) {
      component.letter = stage[1];
      pos += stage[0].length;
      word = false;
    } else if (stage) {
      // A number followed by a stage word: the word is the next component (`10alpha` is `10.alpha`).
      hasPatch = false;
      word = false;
    }
    if (word) {
      component.letter = s[pos].toLowerCase().charCodeAt(0) - 96;
      while (isAlpha(s[pos])) pos++;
    }
  }
  if (hasPatch) {
    if (isDigit(s[pos])) {
      const start = pos;
      while (isDigit(s[pos])) pos++;
      component.patch = Number(s.slice(start, pos));
    } else {
      component.patch = -1;
    }
  }
  while (pos < s.length && !isDigit(s[pos]) && !isAlpha(s[pos]) && s[pos] !== '+' && s[pos] !== '*') pos++;
  return [component, pos];
}
