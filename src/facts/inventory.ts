// The fleet's inventory as templates see it: the hosts that published their facts, each with its
// name and facts. Declared here, below templates, so that the template helpers (`hosts`, and
// `hostfact` when it reads the inventory) depend on this shape and not on where it comes from (the
// fleet's NATS bucket, src/fleet/inventory.ts). Loaded between render passes, as other facts are.

export interface InventoryHost {
  name: string;
  facts: Record<string, string>;
}

/** What a load found: the hosts, or why none could be read. */
export type InventoryAnswer = { ok: true; hosts: Map<string, InventoryHost> } | { ok: false; error: string };

/** One host: found, not in the inventory (null: never published, or aged out), or unreadable. */
export type InventoryHostAnswer = InventoryHost | null | { error: string };

export interface InventorySource {
  /** Every host; undefined: not loaded yet. */
  peek(): InventoryAnswer | undefined;
  load(): Promise<void>;
  /** One host, from the whole inventory when it is loaded; undefined: not loaded yet. */
  peekHost(name: string): InventoryHostAnswer | undefined;
  /** Reads just these hosts (a get each, where loading everything would read every host). */
  loadHosts(names: Iterable<string>): Promise<void>;
  /**
   * The hosts a selection may match (a `hosts` call's): every host when the whole inventory is
   * loaded, else those a load of this selection read; undefined: not loaded yet. The caller matches
   * their facts itself.
   */
  peekWhere(where: readonly Condition[]): InventoryAnswer | undefined;
  /** Reads what these selections need: only the hosts the fleet's fact index names, where it can answer. */
  loadWhere(selections: readonly (readonly Condition[])[]): Promise<void>;
}

/** One key per selection, whatever the order of its conditions. */
export function selectionKey(where: readonly Condition[]): string {
  return where.map((c) => JSON.stringify([c.fact, c.value])).sort().join(',');
}

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

export function matchesAll(facts: Record<string, string> | undefined, conditions: readonly Condition[]): boolean {
  return conditions.every((c) => facts?.[c.fact] === c.value);
}

/** Host names in one order everywhere (code units, not the locale), so rendered files do not churn. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
