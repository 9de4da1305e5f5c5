// A host's values put with its index entries (fact-index.ts), in the order that keeps the index a
// superset of the truth: the new entries before the facts, the entries that went after them, and the
// marker last, listing what the host has now. A publish cut short at any point leaves entries that a
// reader's check of the real facts drops, never a host missing from a value it has. The index is a
// help to readers: its failure is reported, and the run and facts are published all the same.
import type { NatsConnection } from '@nats-io/transport-node';
import { bindBucket, isMissingBucket, putMaking } from './buckets.js';
import { checkFacts } from './published.js';
import { FACTS_BUCKET, INDEX_BUCKET, INDEXED_BUCKET } from './settings.js';
import { untilAnswered } from './transient.js';
import { INDEX_FORMAT, indexEntries, parseMarker } from './fact-index.js';

/** A value for a bucket under a key (relay.ts's RelayPut is one). */
export interface ValuePut {
  bucket: string;
  key: string;
  value: string;
}

export interface PutOptions {
  replicas?: number;
  deadline: number;
}

/** Puts the host's values; the answer is what went wrong with its index, or undefined. */
export async function putHostValues(nc: NatsConnection, host: string, puts: ValuePut[], o: PutOptions): Promise<string | undefined> {
  const factsPut = puts.find((p) => p.bucket === FACTS_BUCKET);
  const checked = factsPut === undefined ? undefined : checkFacts(host, parse(factsPut.value), Date.now());
  if (checked === undefined || !checked.ok) {
    await Promise.all(puts.map((p) => putMaking(nc, p.bucket, p.key, p.value, o)));
    return checked === undefined ? undefined : `not indexed: ${checked.problem}`;
  }
  const current = indexEntries(checked.value);
  let had: string[] | undefined;
  let problem: string | undefined;
  try {
    had = await ownEntries(nc, host, o.deadline);
    const before = new Set(had ?? []);
    await Promise.all(current.filter((k) => !before.has(k)).map((k) => putMaking(nc, INDEX_BUCKET, k, '1', o)));
  } catch (e) {
    problem = (e as Error).message;
  }
  await Promise.all(puts.map((p) => putMaking(nc, p.bucket, p.key, p.value, o)));
  if (problem !== undefined) return problem;
  try {
    const now = new Set(current);
    const gone = (had ?? []).filter((k) => !now.has(k));
    const index = await bindBucket(nc, INDEX_BUCKET);
    await Promise.all(gone.map((k) => index.delete(k)));
    if (had === undefined || gone.length > 0 || current.length !== had.length) {
      await putMaking(nc, INDEXED_BUCKET, host, JSON.stringify({ format: INDEX_FORMAT, entries: current }), o);
    }
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The entries the host's marker lists; undefined when it has none (or none it can read back). */
async function ownEntries(nc: NatsConnection, host: string, deadline: number): Promise<string[] | undefined> {
  const markers = await bindBucket(nc, INDEXED_BUCKET);
  const e = await untilAnswered(deadline, nc.info?.cluster !== undefined, () => markers.get(host)).catch((err: unknown) => {
    if (isMissingBucket(err)) return null;
    throw err;
  });
  const marker = e && e.operation === 'PUT' ? parseMarker(e.string(), host) : undefined;
  return marker !== undefined && marker.format >= INDEX_FORMAT ? marker.entries : undefined;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
