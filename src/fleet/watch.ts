// `govern fleet --watch`: the selected hosts' runs as they are published, until each of them has
// reported a run at the given commit, or the time is up. Hosts are selected once, at the start,
// from the facts published then.
import type { KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { bindBucket } from './buckets.js';
import type { HostRun } from './host-record.js';
import { RUNS_BUCKET } from './settings.js';

export interface WatchGoal {
  hosts: Set<string>;
  /** A commit id or a prefix of one; undefined: follow until the time is up. */
  commit?: string;
  timeoutMs?: number;
}

export type WatchEnd = { reached: true; failed: string[] } | { reached: false; missing: string[]; failed: string[] };

export async function watchRuns(nc: NatsConnection, goal: WatchGoal, onRun: (run: HostRun) => void): Promise<WatchEnd> {
  const at = new Map<string, HostRun>();
  const kv = await bindBucket(nc, RUNS_BUCKET);
  const watch = await kv.watch({ include: 'updates' });
  let timer: NodeJS.Timeout | undefined;
  if (goal.timeoutMs !== undefined) timer = setTimeout(() => watch.stop(), goal.timeoutMs);
  const atCommit = (run: HostRun | undefined) => goal.commit !== undefined && run?.commit?.startsWith(goal.commit) === true;
  const failed = () => [...at.values()].filter((r) => atCommit(r) && !r.success).map((r) => r.host).sort();
  // The values already there count too: a host may have reported before the watch began.
  const known = await currentRuns(kv, goal.hosts);
  for (const run of known) at.set(run.host, run);
  const done = () => goal.commit !== undefined && [...goal.hosts].every((h) => atCommit(at.get(h)));
  try {
    if (!done()) {
      for await (const e of watch) {
        const run = parse(e);
        if (run === undefined || !goal.hosts.has(e.key)) continue;
        at.set(e.key, run);
        onRun(run);
        if (done()) break;
      }
    }
  } finally {
    clearTimeout(timer);
    watch.stop();
  }
  if (done()) return { reached: true, failed: failed() };
  return { reached: false, missing: [...goal.hosts].filter((h) => !atCommit(at.get(h))).sort(), failed: failed() };
}

async function currentRuns(kv: Awaited<ReturnType<typeof bindBucket>>, hosts: Set<string>): Promise<HostRun[]> {
  const runs: HostRun[] = [];
  for (const host of hosts) {
    const e = await kv.get(host);
    if (e && e.operation === 'PUT') runs.push(e.json<HostRun>());
  }
  return runs;
}

function parse(e: KvWatchEntry): HostRun | undefined {
  if (e.operation !== 'PUT') return undefined;
  try {
    return e.json<HostRun>();
  } catch {
    return undefined;
  }
}
