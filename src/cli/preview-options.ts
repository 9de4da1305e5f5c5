// Where `govern plan` and `govern diff` take the hosts they plan for, from their options: the
// snapshots of --facts, or the facts the hosts published to the fleet's inventory
// (src/plan/preview-hosts.ts reads and plans each).
import type { PlanSettings } from '../plan/settings.js';
import { previewHosts, type PreviewHosts } from '../plan/preview-hosts.js';
import { fleetInventory, otherHosts } from './inventory-options.js';
import { planSettings, type PlanningOptions } from './planning-options.js';

/**
 * The inputs of planning for a preview: as a run's, except that a secret the identity cannot read
 * stands for `<sensitive>` (the planning machine need not hold the hosts' keys).
 */
export function previewSettings(target: string, o: PlanningOptions): PlanSettings {
  return { ...planSettings(target, o), unreadableSecrets: 'sensitive' };
}

/** The hosts of `--facts`, or of the fleet's inventory (the one `host`, or every one when `everyHost`); undefined: this host. */
export function hostsOf(o: PlanningOptions & { facts?: string }, host: string | undefined, everyHost: boolean): Promise<PreviewHosts | undefined> {
  return previewHosts({ facts: o.facts, inventory: () => fleetInventory(o), fleetUrl: o.fleetUrl, others: (inventory) => otherHosts(o, inventory) }, host, everyHost);
}
