// `fact "os/name"`, `hostfact "host" "os/name"` and `hosts "role=web"`: read what is known, record
// what is not (the pending value renders as an empty string, or no hosts, and that pass is thrown away).
import type { FactResult } from '../facts/evaluate.js';
import { byName, matchesAll, parseCondition, type InventoryHost } from '../facts/inventory.js';
import type { FactSources, PendingFacts } from './fact-sources.js';
import { HelperError, type HelperFn } from './helpers.js';

function nameArg(helper: string, value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new HelperError(`${helper}: the ${what} must be a non-empty string`);
  return value;
}

function valueOf(result: FactResult, describe: string): string {
  if (!result.ok) throw new HelperError(`${describe}: ${result.error}`);
  return result.value;
}

/** A fact's value as a template used it: `host` for a fact of another host; `line` of the call. */
export interface FactUse {
  name: string;
  host?: string;
  value: string;
  line?: number;
}

function lineOf(all: unknown[]): number | undefined {
  return (all[all.length - 1] as { loc?: { start: { line: number } } } | undefined)?.loc?.start.line;
}

export function factHelpers(sources: FactSources, pending: PendingFacts, onUse: (use: FactUse) => void = () => undefined): Record<string, HelperFn> {
  return {
    fact: (...all) => {
      if (all.length !== 2) throw new HelperError(`fact takes 1 argument (a fact name), got ${all.length - 1}`);
      const name = nameArg('fact', all[0], 'fact name');
      const result = sources.local.peek(name);
      if (result === undefined) {
        pending.addLocal(name);
        return '';
      }
      const value = valueOf(result, `fact "${name}"`);
      onUse({ name, value, line: lineOf(all) });
      return value;
    },
    hostfact: (...all) => {
      if (all.length !== 3) throw new HelperError(`hostfact takes 2 arguments (a host and a fact name), got ${all.length - 1}`);
      // The host may come from a fact still pending in this pass: wait for it.
      if (all[0] === '' && !pending.empty) return '';
      const host = nameArg('hostfact', all[0], 'host');
      const name = nameArg('hostfact', all[1], 'fact name');
      if (!sources.remote) throw new HelperError('hostfact: remote facts are not available here');
      const result = sources.remote.peek(host, name);
      if (result === undefined) {
        pending.addRemote(host, name);
        return '';
      }
      const value = valueOf(result, `hostfact "${host}" "${name}"`);
      onUse({ name, host, value, line: lineOf(all) });
      return value;
    },
    hosts: (...all) => hostsOf(sources, pending, all.slice(0, -1)),
  };
}

/** The fleet's hosts whose facts have every FACT=VALUE given, sorted by name: `[{ name, facts }]`. */
function hostsOf(sources: FactSources, pending: PendingFacts, args: unknown[]): InventoryHost[] {
  const conditions = args.map((arg) => {
    if (typeof arg !== 'string') throw new HelperError('hosts: each argument must be a string FACT=VALUE');
    try {
      return parseCondition(arg);
    } catch (e) {
      throw new HelperError(`hosts: ${(e as Error).message}`);
    }
  });
  if (!sources.inventory) throw new HelperError('hosts: no fleet inventory is configured (--fleet-url, docs/fleet.md)');
  const answer = sources.inventory.peekWhere(conditions);
  if (answer === undefined) {
    pending.addSelection(conditions);
    return [];
  }
  if (!answer.ok) throw new HelperError(`hosts: ${answer.error}`);
  return [...answer.hosts.values()].filter((h) => matchesAll(h.facts, conditions)).sort((a, b) => byName(a.name, b.name));
}
