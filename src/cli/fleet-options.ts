// Options of the fleet layer (docs/fleet.md): where the NATS server is and this host's credentials,
// shared by `govern run` (publishing after the run), `govern fleet` and `govern listen`.
import { checkHostKey } from '../fleet/buckets.js';
import { DEFAULT_FLEET_TIMEOUT_MS, type FleetSettings } from '../fleet/settings.js';
import { searchPaths, type GivenDirs } from '../plan/tree-paths.js';
import { UserError } from '../shared/errors.js';
import { localFacts } from './common-options.js';
import { optionTable, type Options } from './options.js';

export const fleetConnectionOptions = optionTable([
  { name: 'fleet-url', kind: 'text', placeholder: 'URL', env: 'GOVERN_FLEET_URL', help: 'the fleet\'s NATS server (nats://HOST:4222, tls://...; comma-separated for a cluster)' },
  { name: 'fleet-creds', kind: 'text', placeholder: 'FILE', env: 'GOVERN_FLEET_CREDS', help: 'NATS credentials: a .creds file, or a file holding a user nkey seed' },
  { name: 'fleet-ca', kind: 'text', placeholder: 'FILE', env: 'GOVERN_FLEET_CA', help: "the CA certificate that signed the NATS server's (TLS)" },
  {
    name: 'fleet-timeout',
    kind: 'duration',
    placeholder: 'DURATION',
    env: 'GOVERN_FLEET_TIMEOUT',
    default: `${DEFAULT_FLEET_TIMEOUT_MS / 1000}s`,
    help: 'give up on the fleet server after this long',
  },
]);

export const fleetOptions = optionTable([
  ...fleetConnectionOptions,
  { name: 'fleet-name', kind: 'text', placeholder: 'NAME', env: 'GOVERN_FLEET_NAME', help: 'this host\'s name in the fleet (default: its fqdn fact)' },
]);

/** The settings the options give, or undefined when no fleet is configured. */
export function fleetSettings(o: Options<typeof fleetConnectionOptions>): FleetSettings | undefined {
  if (o.fleetUrl === undefined || o.fleetUrl === '') return undefined;
  return { url: o.fleetUrl, credsFile: o.fleetCreds, caFile: o.fleetCa, timeoutMs: o.fleetTimeout };
}

/** This host's name in the fleet: --fleet-name, else its fqdn fact (as when it publishes), checked as a key. */
export async function fleetHostName(o: GivenDirs & { fleetName?: string; factTimeout: number }): Promise<string> {
  let host = o.fleetName;
  if (host === undefined) {
    const facts = localFacts(o, searchPaths(o, undefined));
    await facts.load(['fqdn']);
    const result = facts.peek('fqdn')!;
    if (!result.ok) throw new UserError(`this host's name in the fleet: the fqdn fact: ${result.error} (give --fleet-name)`);
    host = result.value;
  }
  try {
    return checkHostKey(host);
  } catch (e) {
    throw new UserError((e as Error).message);
  }
}
