// `--where FACT=VALUE`, repeated: the hosts whose published facts have every one of those values.
// Shared by `govern fleet`, `govern fleet run` and the `hosts` template helper.
import type { HostFacts } from './host-record.js';

export interface Condition {
  fact: string;
  value: string;
}

/** `role=web` -> { fact: 'role', value: 'web' }; the value may itself hold `=`. */
export function parseCondition(text: string): Condition {
  const at = text.indexOf('=');
  if (at <= 0) throw new Error(`"${text}" is not FACT=VALUE (e.g. role=web)`);
  return { fact: text.slice(0, at), value: text.slice(at + 1) };
}

export function matches(facts: HostFacts | undefined, conditions: readonly Condition[]): boolean {
  return conditions.every((c) => facts?.facts[c.fact] === c.value);
}

/** Host names in a stable order, so that what is rendered from them does not churn. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
