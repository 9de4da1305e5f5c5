// `--where FACT=VALUE`, repeated: the hosts whose published facts have every one of those values.
// The rule is the inventory's (facts/inventory.ts), which the `hosts` template helper uses too.
import { matchesAll, type Condition } from '../facts/inventory.js';
import type { HostFacts } from './host-record.js';

export { byName, parseCondition, type Condition } from '../facts/inventory.js';

export function matches(facts: HostFacts | undefined, conditions: readonly Condition[]): boolean {
  return matchesAll(facts?.facts, conditions);
}
