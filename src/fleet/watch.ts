// `govern fleet --watch`: the selected hosts' runs as they are published, until each of them has
// reported a run at the given commit, or the time is up. The watch begins before the fleet is read,
// so a run published in between is seen by one or the other. Hosts are selected once, at the start,
// from the facts published then.
import type { KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection, QueuedIterator } from '@nats-io/transport-node';
import { bindBucket } from './buckets.js';
import type { HostRun } from './host-record.js';
import { RUNS_BUCKET } from './settings.js';

export interface WatchGoal {
  hosts: Set<string>;
  /** A commit id or a prefix of one; undefined: follow until the time is up. */
  commit?: string;
  timeoutMs?: number;
}

export type WatchEnd = { reached: boolean; missing: string[]; failed: string[] };

export type RunWatch = QueuedIterator<KvWatchEntry>;

/** Runs published from now on. */
export async function startRunWatch(nc: NatsConnection): Promise<RunWatch> {
  return (await bindBucket(nc, RUNS_BUCKET)).watch({ include: 'updates' });
}

/** Follows the watch from the runs known when it began; stops it before returning. */
export async function followRuns(watch: RunWatch, known: Map<string, HostRun>, goal: WatchGoal, onRun: (run: HostRun) => void): Promise<WatchEnd> {
  const at = new Map([...known].filter(([host]) => goal.hosts.has(host)));
  const atCommit = (run: HostRun | undefined) => goal.commit !== undefined && run?.commit?.startsWith(goal.commit) === true;
  const done = () => goal.commit !== undefined && [...goal.hosts].every((h) => atCommit(at.get(h)));
  const timer = goal.timeoutMs === undefined ? undefined : setTimeout(() => watch.stop(), goal.timeoutMs);
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
  const hosts = [...goal.hosts].sort();
  return {
    reached: done(),
    missing: hosts.filter((h) => !atCommit(at.get(h))),
    failed: hosts.filter((h) => atCommit(at.get(h)) && !at.get(h)!.success),
  };
}

function parse(e: KvWatchEntry): HostRun | undefined {
  if (e.operation !== 'PUT') return undefined;
  try {
    return e.json<HostRun>();
  } catch {
    return undefined;
  }
}
