// Where templates read other hosts from: `hostfact` over ssh or from the fleet's inventory, and
// `hosts` from the inventory (docs/fleet.md), with the fleet's connection options.
import { InventoryFacts } from '../facts/remote/inventory-facts.js';
import type { LocalFacts } from '../facts/local-facts.js';
import { FleetInventory } from '../fleet/inventory.js';
import { hostInbox } from '../fleet/publish.js';
import type { FactSources } from '../templates/fact-sources.js';
import { fleetOptions, fleetSettings } from './fleet-options.js';
import { optionTable, type Options } from './options.js';
import { remoteFactOptions, remoteFacts } from './remote-options.js';

export const inventoryOptions = optionTable([
  ...fleetOptions,
  {
    name: 'hostfact-source',
    kind: 'choice',
    placeholder: 'SOURCE',
    choices: ['auto', 'fleet', 'ssh', 'fleet-then-ssh'],
    env: 'GOVERN_HOSTFACT_SOURCE',
    default: 'auto',
    help: "where hostfact reads another host's facts: the fleet's inventory, ssh, or the inventory then ssh; auto: fleet with --fleet-url, else ssh",
  },
  {
    name: 'inventory-max-age',
    kind: 'duration',
    placeholder: 'DURATION',
    env: 'GOVERN_INVENTORY_MAX_AGE',
    default: '24h',
    help: "leave out of the fleet's inventory a host whose facts were published longer ago than this",
  },
]);

/** The fact sources of planning and rendering: nothing connects until a template asks. */
export function factSources(o: Options<typeof inventoryOptions> & Options<typeof remoteFactOptions>, local: LocalFacts): FactSources {
  return { local, ...otherHosts(o, fleetInventory(o)) };
}

/** The fleet's inventory the options configure, or undefined without --fleet-url. */
export function fleetInventory(o: Options<typeof inventoryOptions>): FleetInventory | undefined {
  const settings = fleetSettings(o);
  return settings && new FleetInventory({ settings, maxAgeMs: o.inventoryMaxAge, inboxPrefix: o.fleetName && hostInbox(o.fleetName) });
}

/** Where `hostfact` and `hosts` read other hosts: ssh, or the inventory given (then ssh, if chosen). */
export function otherHosts(o: Options<typeof inventoryOptions> & Options<typeof remoteFactOptions>, inventory: FleetInventory | undefined): Omit<FactSources, 'local'> {
  const ssh = remoteFacts(o);
  if (inventory === undefined) return { remote: ssh };
  const source = o.hostfactSource === 'auto' ? 'fleet' : o.hostfactSource;
  const remote = source === 'ssh' ? ssh : new InventoryFacts(inventory, source === 'fleet-then-ssh' ? ssh : undefined);
  return { remote, inventory };
}
