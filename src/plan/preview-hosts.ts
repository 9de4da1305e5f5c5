// Where `govern plan` and `govern diff` take the hosts they plan for: the snapshots of --facts, or
// the facts the hosts published to the fleet's inventory; and each of them planned (hosts.ts).
import os from 'node:os';
import { byName } from '../facts/inventory.js';
import type { Snapshot } from '../facts/snapshot.js';
import type { FleetInventory } from '../fleet/inventory.js';
import { warn } from '../output/writers.js';
import { UserError } from '../shared/errors.js';
import type { FactSources } from '../templates/fact-sources.js';
import { chooseSnapshots, planHost, snapshotSettings, type HostPreview } from './hosts.js';
import type { PlanSettings } from './settings.js';

/** The hosts a preview plans for, and where they read other hosts from when it is not their snapshots' directory. */
export interface PreviewHosts {
  snapshots: Snapshot[];
  /** The fleet's inventory, read once for every host planned (`hostfact`, `hosts`). */
  others?: Omit<FactSources, 'local'>;
}

/** What the options say about the hosts: `--facts`, else the fleet's inventory (with its URL), if configured. */
export interface HostsGiven {
  facts?: string;
  inventory(): FleetInventory | undefined;
  fleetUrl?: string;
  /** Where `hostfact` and `hosts` read other hosts, given the inventory. */
  others(inventory: FleetInventory): Omit<FactSources, 'local'>;
}

/**
 * Where a preview's facts come from: `--facts` (every snapshot, or the one of `host`); else, with a
 * fleet configured, the facts the hosts published (the one `host`, or every host when `everyHost`);
 * else undefined: this host's own facts.
 */
export async function previewHosts(given: HostsGiven, host: string | undefined, everyHost: boolean): Promise<PreviewHosts | undefined> {
  if (given.facts !== undefined) return { snapshots: chooseSnapshots(given.facts, host) };
  const inventory = given.inventory();
  if (inventory === undefined || (host === undefined && !everyHost)) {
    if (host !== undefined) throw new UserError('--host needs --facts DIR (the directory of the hosts\' snapshots) or a fleet (--fleet-url) whose inventory has the host');
    return undefined;
  }
  const source = `the fleet's inventory at ${given.fleetUrl}`;
  // A value that is not a string is not a fact govern published: left out, as a missing fact.
  const snapshot = (name: string, facts: Record<string, unknown>): Snapshot => ({
    host: name,
    source,
    values: new Map(Object.entries(facts).filter((e): e is [string, string] => typeof e[1] === 'string')),
  });
  const others = given.others(inventory);
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

/** What planning reads for each host: this host's own facts when `hosts` is undefined, else each snapshot's. */
export function hostSettings(settings: () => PlanSettings, hosts: PreviewHosts | undefined): { host: string; facts?: string; settings: PlanSettings }[] {
  if (hosts === undefined) return [{ host: os.hostname(), settings: settings() }];
  return hosts.snapshots.map((s) => ({ host: s.host, facts: s.source, settings: forHost(snapshotSettings(settings(), s, hosts.others), s.host, hosts.snapshots.length) }));
}

/** With several hosts, each warning says which host it is about (as each error does): told once per host, not the same line again. */
function forHost(settings: PlanSettings, host: string, hosts: number): PlanSettings {
  return hosts > 1 ? { ...settings, warn: (message) => warn(`${host}: ${message}`) } : settings;
}

/** `govern plan`: the tree planned for each host, one after the other. */
export async function planPreviews(settings: () => PlanSettings, hosts: PreviewHosts | undefined): Promise<HostPreview[]> {
  if (hosts === undefined) return [await planHost(settings(), os.hostname())];
  const plans: HostPreview[] = [];
  for (const s of hosts.snapshots) plans.push(await planHost(forHost(snapshotSettings(settings(), s, hosts.others), s.host, hosts.snapshots.length), s.host, s.source));
  return plans;
}
