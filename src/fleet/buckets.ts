// The two key-value buckets of the fleet: the last run of each host (govern_runs) and its facts
// (govern_facts), one key per host, the newest value (and the last few runs: RUNS_HISTORY). Bound without asking the server anything,
// so that a host's credentials need no more than publishing to its own keys and reading; a bucket
// that does not exist yet is made by the first user allowed to make it (docs/fleet.md).
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { natsJetstream, natsKv } from './nats.js';
import { RUNS_BUCKET, RUNS_HISTORY } from './settings.js';

export function bindBucket(nc: NatsConnection, name: string): Promise<KV> {
  return new (natsKv().Kvm)(natsJetstream().jetstream(nc, { checkAPI: false })).open(name);
}

export function createBucket(nc: NatsConnection, name: string): Promise<KV> {
  return new (natsKv().Kvm)(natsJetstream().jetstream(nc, { checkAPI: false })).create(name, { history: name === RUNS_BUCKET ? RUNS_HISTORY : 1, description: 'govern: one key per host (docs/fleet.md)' });
}

/** Puts a value under a key, making the bucket first when it does not exist. */
export async function putMaking(nc: NatsConnection, bucket: string, key: string, value: string): Promise<void> {
  const kv = await bindBucket(nc, bucket);
  try {
    await kv.put(key, value);
  } catch (e) {
    if (!isMissingBucket(e)) throw e;
    await (await createBucket(nc, bucket)).put(key, value);
  }
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
