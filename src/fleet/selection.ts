// `--where FACT=VALUE`, repeated: the hosts whose published facts have every one of those values.
// The rule is the inventory's (facts/inventory.ts), which the `hosts` template helper uses too.
import { matchesAll, type Condition } from '../facts/inventory.js';
import { closest } from '../shared/suggest.js';
import type { HostFacts } from './host-record.js';
import { checkFacts } from './published.js';

export { byName, parseCondition, type Condition } from '../facts/inventory.js';

export function matches(facts: HostFacts | undefined, conditions: readonly Condition[]): boolean {
  return matchesAll(facts?.facts, conditions);
}

/**
 * For a selection no host matches: the published value a condition likely means, as
 * ` (did you mean role=web?)`, or '' (a value another host published is suggested only when it is printable ASCII without spaces:
 * it reaches a terminal).
 */
export function selectionHint(facts: Map<string, unknown>, conditions: readonly Condition[], nowMs: number): string {
  const published = [...facts].flatMap(([host, v]) => {
    const c = checkFacts(host, v, nowMs);
    return c.ok ? [c.value.facts] : [];
  });
  for (const c of conditions) {
    const values = new Set(published.map((f) => f[c.fact]).filter((v): v is string => typeof v === 'string' && /^[\x21-\x7e]{1,200}$/.test(v)));
    if (values.has(c.value)) continue;
    const match = closest(c.value, values);
    if (match !== undefined) return ` (did you mean ${c.fact}=${match}?)`;
  }
  return '';
}
