// After a real run: the host's run summary and facts into the fleet's buckets, within a time limit.
// Nothing here can fail the run: the outcome is data, which the caller logs, counts and records
// (publish-record.ts). Through the host's listener when one is connected (relay.ts), else over a
// connection of its own, closed after, or abandoned when it does not answer in time.
import { maskSecrets } from '../shared/secret-texts.js';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectFleet, within } from './connection.js';
import { deadlineIn } from './transient.js';
import type { HostFacts, HostRun } from './host-record.js';
import type { RelayPut } from './relay.js';
import { publishViaRelay, RELAY_WAIT_MS } from './relay-client.js';
import { putHostValues } from './index-publish.js';
import { FACTS_BUCKET, RUNS_BUCKET, type FleetSettings } from './settings.js';

/** `via`: the host's listener (relay.ts) or a connection of the run's own; `index`: why the fact index was not kept (index-publish.ts). */
export type PublishOutcome = { ok: true; ms: number; via?: 'listener' | 'own'; index?: string } | { ok: false; ms: number; error: string };

/** facts undefined: the run alone (an interrupted run, whose facts may have been cut short). */
export async function publishHost(settings: FleetSettings, run: HostRun, facts: HostFacts | undefined): Promise<PublishOutcome> {
  const start = Date.now();
  const values: RelayPut[] = [{ bucket: RUNS_BUCKET, key: run.host, value: maskSecrets(JSON.stringify(run)) }];
  if (facts !== undefined) values.push({ bucket: FACTS_BUCKET, key: run.host, value: JSON.stringify(facts) });
  const deadline = deadlineIn(settings.timeoutMs);
  let nc: NatsConnection | undefined;
  let index: string | undefined;
  const work = async (): Promise<'listener' | 'own'> => {
    if ((await publishViaRelay(settings.url, values, Math.min(RELAY_WAIT_MS, settings.timeoutMs / 2))) === 'relayed') return 'listener';
    nc = await connectFleet(settings, { clientName: `govern run ${run.host}`, inboxPrefix: hostInbox(run.host) });
    index = await putHostValues(nc, run.host, values, { replicas: settings.replicas, deadline });
    return 'own';
  };
  try {
    const via = await within(settings.timeoutMs, `publishing to the fleet at ${settings.url}`, work());
    return { ok: true, ms: Date.now() - start, via, ...(index === undefined ? {} : { index }) };
  } catch (e) {
    return { ok: false, ms: Date.now() - start, error: reason(e) };
  } finally {
    // Not awaited past the deadline: a server that stopped answering must not hold the run.
    if (nc) await within(500, 'closing', nc.close()).catch(() => undefined);
  }
}

/** Replies to a host come under a prefix of its own, so its permissions need not allow every inbox. */
export function hostInbox(host: string): string {
  return `_GOVERN_INBOX.${host}`;
}

function reason(e: unknown): string {
  const err = e as Error & { cause?: Error };
  const cause = err?.cause?.message;
  return cause && !err.message.includes(cause) ? `${err.message}: ${cause}` : String(err?.message ?? e);
}
