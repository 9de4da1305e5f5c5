// The pure template helpers: comparisons, logic and strings. Facts come from fact-helpers.ts.
import { compareVersions, isVersionScheme, VERSION_SCHEMES } from '../shared/version/index.js';
import { hclQuote } from './hcl-quote.js';

/** Handlebars passes an options object last; a helper's own arguments come before it. */
export type HelperFn = (...args: unknown[]) => unknown;

export class HelperError extends Error {}

/** Handlebars' own idea of false: empty string, false, 0, null, undefined, an empty list. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function args(all: unknown[]): unknown[] {
  return all.slice(0, -1);
}

function needArgs(name: string, all: unknown[], count: number): unknown[] {
  const given = args(all);
  if (given.length !== count) throw new HelperError(`${name} takes ${count} argument${count === 1 ? '' : 's'}, got ${given.length}`);
  return given;
}

function scalarText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new HelperError(`${name}: expected a string, a number or a boolean, got ${value === undefined ? 'nothing' : typeof value}`);
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** Numbers (and numeric strings, as facts are) compare as numbers; other strings as strings. */
function compare(name: string, a: unknown, b: unknown): number {
  const x = scalarText(name, a);
  const y = scalarText(name, b);
  if (NUMBER.test(x) && NUMBER.test(y)) return Math.sign(Number(x) - Number(y));
  return x < y ? -1 : x > y ? 1 : 0;
}

const YES = new Set(['true', 'yes', 'on', '1']);
const NO = new Set(['false', 'no', 'off', '0', '']);

export const pureHelpers: Record<string, HelperFn> = {
  eq: (...all) => {
    const [a, b] = needArgs('eq', all, 2);
    return scalarText('eq', a) === scalarText('eq', b);
  },
  ne: (...all) => {
    const [a, b] = needArgs('ne', all, 2);
    return scalarText('ne', a) !== scalarText('ne', b);
  },
  lt: (...all) => compare('lt', ...(needArgs('lt', all, 2) as [unknown, unknown])) < 0,
  gt: (...all) => compare('gt', ...(needArgs('gt', all, 2) as [unknown, unknown])) > 0,
  le: (...all) => compare('le', ...(needArgs('le', all, 2) as [unknown, unknown])) <= 0,
  ge: (...all) => compare('ge', ...(needArgs('ge', all, 2) as [unknown, unknown])) >= 0,
  and: (...all) => {
    const given = args(all);
    if (given.length === 0) throw new HelperError('and needs at least one argument');
    return given.find((v) => !truthy(v)) ?? given[given.length - 1];
  },
  or: (...all) => {
    const given = args(all);
    if (given.length === 0) throw new HelperError('or needs at least one argument');
    return given.find((v) => truthy(v)) ?? given[given.length - 1];
  },
  not: (...all) => !truthy(needArgs('not', all, 1)[0]),
  default: (...all) => {
    const [value, fallback] = needArgs('default', all, 2);
    return value === undefined || value === null || value === '' ? fallback : value;
  },
  lower: (...all) => scalarText('lower', needArgs('lower', all, 1)[0]).toLowerCase(),
  upper: (...all) => scalarText('upper', needArgs('upper', all, 1)[0]).toUpperCase(),
  concat: (...all) => args(all).map((v) => scalarText('concat', v)).join(''),
  split: (...all) => {
    const [text, separator] = needArgs('split', all, 2);
    const t = scalarText('split', text);
    return t === '' ? [] : t.split(scalarText('split', separator));
  },
  /** join VALUE... SEPARATOR: lists are flattened. */
  join: (...all) => {
    const given = args(all);
    if (given.length < 2) throw new HelperError('join takes values (or lists) and then a separator');
    const separator = scalarText('join', given[given.length - 1]);
    return given
      .slice(0, -1)
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .map((v) => scalarText('join', v))
      .join(separator);
  },
  yesno: (...all) => {
    const [value] = needArgs('yesno', all, 1);
    if (typeof value === 'boolean') return value ? 'yes' : 'no';
    const text = scalarText('yesno', value).trim().toLowerCase();
    if (YES.has(text)) return 'yes';
    if (NO.has(text)) return 'no';
    throw new HelperError(`yesno: "${text}" is not a boolean (true/false, yes/no, on/off, 1/0)`);
  },
  quote: (...all) => hclQuote(scalarText('quote', needArgs('quote', all, 1)[0])),
  /** versioncmp A B [scheme="debian"|"rpm"|"generic"|"pacman"|"freebsd"]: -1, 0 or 1 (generic by default). */
  versioncmp: (...all) => {
    const [a, b] = needArgs('versioncmp', all, 2);
    const hash = (all[all.length - 1] as { hash?: Record<string, unknown> }).hash ?? {};
    const scheme = hash.scheme ?? 'generic';
    if (typeof scheme !== 'string' || !isVersionScheme(scheme)) throw new HelperError(`versioncmp: scheme must be one of ${VERSION_SCHEMES.join(', ')}`);
    return compareVersions(scheme, scalarText('versioncmp', a), scalarText('versioncmp', b));
  },
};
