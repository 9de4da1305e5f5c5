// How a key's values at several levels become one (hierarchy.hcl's `merge`, docs/data.md): `first`
// takes the most specific level's value; `unique` joins lists in level order, each element once;
// `deep` merges maps key by key, the more specific level winning wherever both have a key that is
// not a map in both.
import type { AttrValue } from '../shared/protocol.js';

export const MERGE_STRATEGIES = ['first', 'unique', 'deep'] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export function isMergeStrategy(value: unknown): value is MergeStrategy {
  return typeof value === 'string' && (MERGE_STRATEGIES as readonly string[]).includes(value);
}

type DataMap = { [key: string]: AttrValue };

export function isDataMap(value: AttrValue | undefined): value is DataMap {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

/** A value that cannot be merged by the strategy: the caller names its level. */
export class MergeError extends Error {}

/** Values most specific first; never empty. */
export function mergeValues(strategy: MergeStrategy, values: readonly AttrValue[]): AttrValue {
  if (strategy === 'first') return values[0];
  if (strategy === 'unique') return uniqueUnion(values);
  let merged = values[values.length - 1];
  for (let i = values.length - 2; i >= 0; i--) merged = deepMerge(merged, values[i]);
  return merged;
}

/** Checks one level's value before it is merged: the reason it cannot be, or undefined. */
export function unmergeable(strategy: MergeStrategy, value: AttrValue): string | undefined {
  if (strategy === 'deep' && !isDataMap(value)) return `merge "deep" joins maps, and this value is ${describeValue(value)}`;
  return undefined;
}

function uniqueUnion(values: readonly AttrValue[]): AttrValue[] {
  const out: AttrValue[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    for (const element of Array.isArray(value) ? value : [value]) {
      const key = JSON.stringify(element);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(element);
    }
  }
  return out;
}

/** Over the less specific `base`, the more specific `top`. */
function deepMerge(base: AttrValue, top: AttrValue): AttrValue {
  if (!isDataMap(base) || !isDataMap(top)) return top;
  // Built with fromEntries: a key such as "__proto__" (JSON and YAML allow it) stays a plain key.
  const keys = [...Object.keys(base), ...Object.keys(top).filter((key) => !Object.hasOwn(base, key))];
  return Object.fromEntries(keys.map((key) => [key, !Object.hasOwn(top, key) ? base[key] : Object.hasOwn(base, key) ? deepMerge(base[key], top[key]) : top[key]]));
}

export function describeValue(value: AttrValue): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'a map';
  return `a ${typeof value}`;
}
