// The two key-value buckets of the fleet: the last run of each host (govern_runs) and its facts
// (govern_facts), one key per host, the newest value (and the last few runs: RUNS_HISTORY). Bound without asking the server anything,
// so that a host's credentials need no more than publishing to its own keys and reading; a bucket
// that does not exist yet is made by the first user allowed to make it (docs/fleet.md).
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { natsJetstream, natsKv } from './nats.js';
import { RUNS_BUCKET, RUNS_HISTORY } from './settings.js';
import { isTransient, untilAnswered } from './transient.js';

/** timeoutMs: of each request to the server (default the client's, 5 s). */
export function bindBucket(nc: NatsConnection, name: string, timeoutMs?: number): Promise<KV> {
  return new (natsKv().Kvm)(natsJetstream().jetstream(nc, { checkAPI: false, timeout: timeoutMs })).open(name);
}

/** replicas undefined: 3 when the server is one of a cluster (it says so when we connect), else 1. */
export function createBucket(nc: NatsConnection, name: string, replicas?: number): Promise<KV> {
  return new (natsKv().Kvm)(natsJetstream().jetstream(nc, { checkAPI: false })).create(name, {
    history: name === RUNS_BUCKET ? RUNS_HISTORY : 1,
    replicas: replicas ?? defaultReplicas(nc),
    description: 'govern: one key per host (docs/fleet.md)',
  });
}

export function defaultReplicas(nc: NatsConnection): number {
  return nc.info?.cluster ? 3 : 1;
}

/**
 * Puts a value under a key, making the bucket first when it does not exist. On a cluster electing the
 * stream's leader the put gets no responders or no answer, as if there were no bucket: it is tried
 * again until the deadline (a put that was stored but not acknowledged, stored twice, is the same value).
 */
export async function putMaking(nc: NatsConnection, bucket: string, key: string, value: string, o: { replicas?: number; deadline: number }): Promise<void> {
  const kv = await bindBucket(nc, bucket);
  const clustered = nc.info?.cluster !== undefined;
  await untilAnswered(o.deadline, clustered, async (ms) => {
    try {
      await kv.put(key, value, { timeout: ms });
    } catch (e) {
      if (!isMissingBucket(e)) throw e;
      // Made by now, or the cluster is between leaders: either way the put is tried again.
      await createBucket(nc, bucket, o.replicas).catch((made: unknown) => {
        if (!isTransient(made, clustered) && !/already in use/i.test(String((made as Error)?.message))) throw made;
      });
      await kv.put(key, value, { timeout: ms });
    }
  });
}

/** No stream behind the bucket's subjects: the server says no one answers. */
export function isMissingBucket(e: unknown): boolean {
  const text = `${(e as Error)?.message} ${(e as { cause?: Error })?.cause?.message ?? ''}`;
  return /no responders|stream not found/i.test(text);
}

/** A host's key: its name, which KV keys accept as it is (letters, digits, - _ = and dots between them). */
export function checkHostKey(name: string): string {
  if (!/^[A-Za-z0-9_=-]+(\.[A-Za-z0-9_=-]+)*$/.test(name)) throw new Error(`"${name}" cannot be a fleet host name: letters, digits, - _ = and dots between them`);
  return name;
}
