// `govern fleet history HOST`: the host's last runs, from the history govern_runs keeps per key
// (RUNS_HISTORY). What the host published is untrusted: at most MAX_READ values are read, each is
// checked as `govern fleet` checks a last run (published.ts), and one that fails is a row saying why.
import type { NatsConnection } from '@nats-io/transport-node';
import { UserError } from '../shared/errors.js';
import { isMissingBucket, bindBucket, checkHostKey } from './buckets.js';
import { within } from './connection.js';
import type { HostRun } from './host-record.js';
import { checkRun } from './published.js';
import { fleetProblem } from './read-fleet.js';
import { RUNS_BUCKET } from './settings.js';

/** The most a key's history holds in a KV bucket (the server's limit): a host cannot make us read more. */
export const MAX_READ = 64;

export interface HistoryEntry {
  /** The stream's sequence of the value: increases with every publish of any host. */
  revision: number;
  /** When the server stored it, ISO 8601 (the host's own times are in the run). */
  stored_at: string;
  run?: HostRun;
  /** Why the value was not taken: not a valid run, or the key was deleted then. */
  problem?: string;
}

export interface HostHistory {
  host: string;
  /** Runs the bucket keeps per host: fewer than asked means the bucket was made with less history. */
  kept: number;
  /** Oldest first, the last `limit` of them. */
  entries: HistoryEntry[];
}

export async function hostHistory(nc: NatsConnection, host: string, limit: number, timeoutMs: number): Promise<HostHistory> {
  try {
    checkHostKey(host);
  } catch (e) {
    throw new UserError((e as Error).message);
  }
  const read = async (): Promise<HostHistory> => {
    const kv = await bindBucket(nc, RUNS_BUCKET);
    let kept: number;
    try {
      kept = (await kv.status()).history;
    } catch (e) {
      if (isMissingBucket(e)) return { host, kept: 0, entries: [] };
      throw e;
    }
    const entries: HistoryEntry[] = [];
    const values = await kv.history({ key: host });
    for await (const e of values) {
      const entry: HistoryEntry = { revision: e.revision, stored_at: e.created.toISOString() };
      if (e.operation !== 'PUT') entries.push({ ...entry, problem: `the host's key was ${e.operation === 'DEL' ? 'deleted' : 'purged'}` });
      else entries.push({ ...entry, ...checked(host, e.string()) });
      if (entries.length >= MAX_READ) break;
    }
    values.stop();
    return { host, kept, entries: entries.slice(-limit) };
  };
  return fleetProblem(nc.getServer(), within(timeoutMs, `reading the history of ${host}`, read()));
}

function checked(host: string, text: string): { run: HostRun } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'its published run: not JSON' };
  }
  const c = checkRun(host, value, Date.now());
  return c.ok ? { run: c.value } : { problem: c.problem };
}
