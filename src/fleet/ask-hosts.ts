// `govern fleet run --where FACT=VALUE... [--batch N|N%] [--noop]`: the selected hosts run now, in
// batches, stopping at the first failure (fleet-run.ts). --noop lists the batches and asks no host,
// as Ansible's --list-hosts does.
import { UserError } from '../shared/errors.js';
import { terminalLine } from '../shared/terminal-text.js';
import { rollout } from './fleet-run.js';
import { checkFacts } from './published.js';
import { readFleet, withFleet, type FleetState } from './read-fleet.js';
import { selectHosts } from './indexed-selection.js';
import { requestSigner, type Signer } from './request-signature.js';
import { batches, batchSize } from './run-request.js';
import { matches, selectionHint, type Condition } from './selection.js';
import type { FleetSettings } from './settings.js';

export interface FleetRunOptions {
  where: Condition[];
  batch?: string;
  noop: boolean;
  batchTimeoutMs: number;
  /** A user nkey seed file to sign the requests with. */
  signKey?: string;
}

/**
 * Exit status: 0 every host ran successfully; 2 a host failed (later batches not asked); 3 none
 * selected. A fleet that cannot be reached throws FleetUnreachable (read-fleet.ts).
 */
export async function fleetRun(settings: FleetSettings, o: FleetRunOptions, print: (text: string) => Promise<void>): Promise<number> {
  if (o.where.length === 0) throw new UserError('govern fleet run needs at least one --where FACT=VALUE (--where fqdn=HOST for one host)');
  const sign = o.signKey === undefined ? undefined : requestSigner(o.signKey);
  return rolloutOf(settings, o, sign, print);
}

async function rolloutOf(settings: FleetSettings, o: FleetRunOptions, sign: Signer | undefined, out: (text: string) => Promise<void>): Promise<number> {
  return withFleet(settings, 'govern fleet run', async (nc) => {
    // Only a host whose published facts are valid and match is asked (one whose facts are not valid cannot be matched).
    const now = Date.now();
    const pick = ({ facts }: FleetState) => [...facts].flatMap(([host, v]) => {
      const c = checkFacts(host, v, now);
      return c.ok && matches(c.value, o.where) ? [host] : [];
    }).sort();
    const { state: { facts }, selected: hosts } = await selectHosts(nc, o.where, settings.timeoutMs, pick, () => readFleet(nc, settings));
    if (hosts.length === 0) {
      await out(`no host matches${selectionHint(facts, o.where, now)}\n`);
      return 3;
    }
    let size: number;
    try {
      size = o.batch === undefined ? hosts.length : batchSize(o.batch, hosts.length);
    } catch (e) {
      throw new UserError((e as Error).message);
    }
    const planned = batches(hosts, size);
    if (o.noop) {
      await out(planned.map((b, i) => `batch ${i + 1} of ${planned.length}: ${b.join(', ')}\n`).join('') + `would ask ${hosts.length} host${hosts.length === 1 ? '' : 's'} to run (--noop: none asked)\n`);
      return 0;
    }
    const say = (text: string) => out(`${terminalLine(text)}\n`);
    const end = await rollout(nc, { batches: planned, batchTimeoutMs: o.batchTimeoutMs, sign, say, fleetTimeoutMs: settings.timeoutMs });
    if (end.ok) {
      await say(`every selected host (${hosts.length}) ran successfully`);
      return 0;
    }
    const failed = end.outcomes.filter((r) => !r.ok).map((r) => r.host);
    await say(`stopped: ${failed.join(', ')} failed${end.notAsked.length > 0 ? `; not asked: ${end.notAsked.join(', ')}` : ''}`);
    return 2;
  });
}
