// Reading the fleet as an operator: one connection, both buckets read at once, within the time limit.
import type { NatsConnection } from '@nats-io/transport-node';
import { connectFleet, within } from './connection.js';
import type { HostFacts, HostRun } from './host-record.js';
import { FACTS_BUCKET, RUNS_BUCKET, type FleetSettings } from './settings.js';
import { bucketSnapshot } from './snapshot.js';

export interface FleetState {
  runs: Map<string, HostRun>;
  facts: Map<string, HostFacts>;
}

export async function withFleet<T>(settings: FleetSettings, clientName: string, use: (nc: NatsConnection) => Promise<T>, inboxPrefix?: string): Promise<T> {
  const nc = await within(settings.timeoutMs, `connecting to the fleet at ${settings.url}`, connectFleet(settings, { clientName, inboxPrefix }));
  try {
    return await use(nc);
  } finally {
    await within(1_000, 'closing', nc.close()).catch(() => undefined);
  }
}

export async function readFleet(nc: NatsConnection, timeoutMs: number): Promise<FleetState> {
  const [runs, facts] = await within(
    timeoutMs,
    'reading the fleet',
    Promise.all([bucketSnapshot<HostRun>(nc, RUNS_BUCKET), bucketSnapshot<HostFacts>(nc, FACTS_BUCKET)]),
  );
  return { runs, facts };
}
