// Where `govern plan` and `govern diff` take the hosts they plan for, from their options: the
// snapshots of --facts, or the facts the hosts published to the fleet's inventory (src/plan/hosts.ts
// plans each).
import { byName } from '../facts/inventory.js';
import type { Snapshot } from '../facts/snapshot.js';
import { chooseSnapshots } from '../plan/hosts.js';
import type { PlanSettings } from '../plan/settings.js';
import { UserError } from '../shared/errors.js';
import type { FactSources } from '../templates/fact-sources.js';
import { fleetInventory, otherHosts } from './inventory-options.js';
import { planSettings, type PlanningOptions } from './planning-options.js';

/**
 * The inputs of planning for a preview: as a run's, except that a secret the identity cannot read
 * stands for `<sensitive>` (the planning machine need not hold the hosts' keys).
 */
export function previewSettings(target: string, o: PlanningOptions): PlanSettings {
  return { ...planSettings(target, o), unreadableSecrets: 'sensitive' };
}

/** The hosts a preview plans for, and where they read other hosts from when it is not their snapshots' directory. */
export interface PreviewHosts {
  snapshots: Snapshot[];
  /** The fleet's inventory, read once for every host planned (`hostfact`, `hosts`). */
  others?: Omit<FactSources, 'local'>;
}

/**
 * Where a preview's facts come from: `--facts` (every snapshot, or the one of `host`); else, with a
 * fleet configured, the facts the hosts published (the one `host`, or every host when `everyHost`);
 * else undefined: this host's own facts.
 */
export async function previewHosts(o: PlanningOptions & { facts?: string }, host: string | undefined, everyHost: boolean): Promise<PreviewHosts | undefined> {
  if (o.facts !== undefined) return { snapshots: chooseSnapshots(o.facts, host) };
  const inventory = fleetInventory(o);
  if (inventory === undefined || (host === undefined && !everyHost)) {
    if (host !== undefined) throw new UserError('--host needs --facts DIR (the directory of the hosts\' snapshots) or a fleet (--fleet-url) whose inventory has the host');
    return undefined;
  }
  const source = `the fleet's inventory at ${o.fleetUrl}`;
  // A value that is not a string is not a fact govern published: left out, as a missing fact.
  const snapshot = (name: string, facts: Record<string, unknown>): Snapshot => ({
    host: name,
    source,
    values: new Map(Object.entries(facts).filter((e): e is [string, string] => typeof e[1] === 'string')),
  });
  const others = otherHosts(o, inventory);
  if (host !== undefined) {
    await inventory.loadHosts([host]);
    const found = inventory.peekHost(host);
    if (found === null || found === undefined) throw new UserError(`host ${host} is not in ${source} (it never published its facts, or they are older than --inventory-max-age)`);
    if ('error' in found) throw new UserError(`cannot read host ${host} from ${source}: ${found.error}`);
    return { snapshots: [snapshot(host, found.facts)], others };
  }
  await inventory.load();
  const all = inventory.peek();
  if (!all?.ok) throw new UserError(all?.error ?? `cannot read ${source}`);
  if (all.hosts.size === 0) throw new UserError(`${source} has no host (none published its facts within --inventory-max-age)`);
  return { snapshots: [...all.hosts.values()].sort((a, b) => byName(a.name, b.name)).map((h) => snapshot(h.name, h.facts)), others };
}
