// Reading the fleet as an operator: one connection, both buckets read at once, within the time limit.
import type { NatsConnection } from '@nats-io/transport-node';
import { UserError } from '../shared/errors.js';
import { connectFleet, within } from './connection.js';
import { FACTS_BUCKET, INDEX_BUCKET, INDEXED_BUCKET, RUNS_BUCKET, type FleetSettings } from './settings.js';
import { factsCutTo } from './published.js';
import { bucketSnapshot, ensureBucket } from './snapshot.js';
import { deadlineIn } from './transient.js';

/** The buckets' values as read: what hosts published, not yet checked (published.ts checks them). */
export interface FleetState {
  runs: Map<string, unknown>;
  facts: Map<string, unknown>;
}

export async function withFleet<T>(settings: FleetSettings, clientName: string, use: (nc: NatsConnection) => Promise<T>, inboxPrefix?: string): Promise<T> {
  const nc = await fleetProblem(settings.url, within(settings.timeoutMs, 'connecting', connectFleet(settings, { clientName, inboxPrefix })));
  try {
    return await use(nc);
  } finally {
    await within(1_000, 'closing', nc.close()).catch(() => undefined);
  }
}

/**
 * `inboxPrefix`: a host's (a pull's stage gate), whose permissions let it hear replies only there.
 * `factsRead`: the only facts the caller looks at (published.ts, factsCutTo); default every one.
 */
export async function readFleet(nc: NatsConnection, settings: Pick<FleetSettings, 'timeoutMs' | 'replicas'>, inboxPrefix?: string, factsRead?: readonly string[]): Promise<FleetState> {
  const o = { replicas: settings.replicas, deadline: deadlineIn(settings.timeoutMs), inboxPrefix };
  const keep = factsRead === undefined ? undefined : factsCutTo(factsRead, Date.now());
  // The operators' read makes the index's bucket too, which hosts' credentials cannot (fact-index.ts).
  const index = inboxPrefix === undefined ? Promise.all([ensureBucket(nc, INDEX_BUCKET, o), ensureBucket(nc, INDEXED_BUCKET, o)]) : Promise.resolve();
  const reading = Promise.all([bucketSnapshot<unknown>(nc, RUNS_BUCKET, o), bucketSnapshot<unknown>(nc, FACTS_BUCKET, { ...o, keep }), index]);
  const [runs, facts] = await fleetProblem(nc.getServer(), within(settings.timeoutMs, 'reading the buckets', reading));
  return { runs, facts };
}

/** The fleet could not be read (refused, timed out, not permitted): not a mistake on the command line. */
export class FleetUnreachable extends UserError {}

/** What the NATS client throws (refused, timed out, not permitted) is the user's problem to fix: said as such. */
export async function fleetProblem<T>(server: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof UserError) throw e;
    const err = e as Error & { cause?: Error };
    const cause = err.cause?.message && !err.message.includes(err.cause.message) ? `: ${err.cause.message}` : '';
    throw new FleetUnreachable(`the fleet at ${server}: ${err.message}${cause}`);
  }
}
