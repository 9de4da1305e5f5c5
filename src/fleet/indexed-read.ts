// `govern fleet --where` through the publishers' index (fact-index.ts): the hosts under each
// condition's prefix of govern_index, as the stream lists its subjects (names, no values), and then
// only those hosts' facts and runs, a get each. Every answer is checked by the caller as a full read
// is (fleet-view.ts matches the real facts), so an entry that lies or is stale costs a get, never a
// host selected that should not be. The index answers only when it can answer for every host: as
// many markers (govern_indexed) as hosts with facts, counted from the two streams' states; a marker
// is put only after its host's facts, so the count falls short while any host with facts keeps no
// index (one published by an older govern). Else, and for a selection so large that the gets would
// cost more than reading everything, the caller reads the whole fleet.
import type { NatsConnection } from '@nats-io/transport-node';
import type { Condition } from '../facts/inventory.js';
import { bindBucket, isMissingBucket } from './buckets.js';
import { entryPrefix, indexable } from './fact-index.js';
import { natsJetstream } from './nats.js';
import type { FleetState } from './read-fleet.js';
import { FACTS_BUCKET, INDEX_BUCKET, INDEXED_BUCKET, RUNS_BUCKET } from './settings.js';
import { untilAnswered } from './transient.js';

/** Gets under way at once (as direct-snapshot.ts). */
const IN_FLIGHT = 64;
/**
 * A selection of more than this share of the hosts is read whole: a get per host costs about this many
 * values of a consumer's stream (bench/fleet/inventory.ts measures both).
 */
export const MAX_SHARE = 0.25;
/** Up to this many gets the share does not matter: a small fleet is read quickly either way. */
const ALWAYS_GETS = 500;

export type IndexAnswer = { ok: true; state: FleetState; candidates: number } | { ok: false; why: string };

export async function readByIndex(nc: NatsConnection, where: readonly Condition[], deadline: number): Promise<IndexAnswer> {
  if (where.length === 0) return { ok: false, why: 'no --where' };
  // The conditions on facts not indexed are left to the check of the real facts, as every condition is.
  const indexed = where.filter(indexable);
  if (indexed.length === 0) return { ok: false, why: `${where.map((c) => c.fact).join(', ')} ${where.length === 1 ? 'is' : 'are'} not indexed` };
  const clustered = nc.info?.cluster !== undefined;
  const { jetstreamManager } = natsJetstream();
  const info = async (bucket: string, prefix?: string) => {
    try {
      return await untilAnswered(deadline, clustered, async (ms) => (await jetstreamManager(nc, { checkAPI: false, timeout: ms })).streams.info(`KV_${bucket}`, prefix === undefined ? undefined : { subjects_filter: `$KV.${bucket}.${prefix}>` }));
    } catch (e) {
      if (isMissingBucket(e)) return undefined;
      throw e;
    }
  };
  // Counted first: a fleet without an index, or not all in it, costs two small requests.
  const [markers, facts] = await Promise.all([info(INDEXED_BUCKET), info(FACTS_BUCKET)]);
  if (markers === undefined || facts === undefined) return { ok: false, why: 'no index' };
  const hosts = facts.state.num_subjects ?? facts.state.messages;
  const without = hosts - (markers.state.num_subjects ?? markers.state.messages);
  if (without > 0) return { ok: false, why: `${without} host${without === 1 ? '' : 's'} published no index` };
  const entries = await Promise.all(indexed.map(async (c) => {
    const start = `$KV.${INDEX_BUCKET}.${entryPrefix(c)}`.length;
    return Object.keys((await info(INDEX_BUCKET, entryPrefix(c)))?.state.subjects ?? {}).map((s) => s.slice(start));
  }));
  const candidates = [...entries.reduce((a, b) => {
    const inB = new Set(b);
    return a.filter((h) => inB.has(h));
  })].sort();
  if (candidates.length > Math.max(ALWAYS_GETS, hosts * MAX_SHARE)) return { ok: false, why: `the index selects ${candidates.length} of ${hosts} hosts` };
  return { ok: true, state: await readHosts(nc, candidates, deadline), candidates: candidates.length };
}

/** Each host's facts and last run, a get each, IN_FLIGHT at once. */
async function readHosts(nc: NatsConnection, hosts: string[], deadline: number): Promise<FleetState> {
  const clustered = nc.info?.cluster !== undefined;
  const [runsKv, factsKv] = await Promise.all([bindBucket(nc, RUNS_BUCKET), bindBucket(nc, FACTS_BUCKET)]);
  const state: FleetState = { runs: new Map(), facts: new Map() };
  let next = 0;
  const worker = async () => {
    while (next < hosts.length) {
      const host = hosts[next++];
      const [run, facts] = await Promise.all([runsKv, factsKv].map((kv) => untilAnswered(deadline, clustered, () => kv.get(host))));
      for (const [e, into] of [[run, state.runs], [facts, state.facts]] as const) {
        if (e === null || e.operation !== 'PUT') continue;
        try {
          into.set(host, e.json());
        } catch {
          // not JSON: not a host of ours (snapshot.ts leaves it out the same way)
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, hosts.length) }, worker));
  return state;
}
