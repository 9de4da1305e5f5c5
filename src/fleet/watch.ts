// `govern fleet --watch`: the selected hosts' runs as they are published, until each of them has
// reported a run at the given commit, or the time is up. The watches begin before the fleet is read,
// so a value published in between is seen by one or the other. The selection follows the facts
// published during the watch: a rollout may add hosts, or give one the role being rolled out, and
// such a host is one more that must reach the commit; a host whose new facts no longer match leaves.
import type { KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection, QueuedIterator } from '@nats-io/transport-node';
import { bindBucket } from './buckets.js';
import type { HostRun } from './host-record.js';
import { checkFacts, checkRun, type Checked } from './published.js';
import { matches, type Condition } from './selection.js';
import { FACTS_BUCKET, RUNS_BUCKET } from './settings.js';

export interface WatchGoal {
  /** The hosts selected when the watch began. */
  hosts: Set<string>;
  /** What selects a host, applied again to the facts a host publishes during the watch. */
  where: readonly Condition[];
  /** A commit id or a prefix of one; undefined: follow until the time is up. */
  commit?: string;
  timeoutMs?: number;
}

/** `hosts`: the selection at the end, sorted; `reverted`: those that went back from the commit (their health checks failed). */
export type WatchEnd = { reached: boolean; hosts: string[]; missing: string[]; failed: string[]; reverted: string[] };

export type WatchEvent = { kind: 'run'; run: HostRun } | { kind: 'selected' | 'unselected'; host: string } | { kind: 'invalid'; host: string; problem: string };

export type RunWatch = QueuedIterator<KvWatchEntry>;

export interface FleetWatch {
  runs: RunWatch;
  facts: RunWatch;
}

/** Runs published from now on. */
export async function startRunWatch(nc: NatsConnection): Promise<RunWatch> {
  return (await bindBucket(nc, RUNS_BUCKET)).watch({ include: 'updates' });
}

/** Runs and facts published from now on. */
export async function startFleetWatch(nc: NatsConnection): Promise<FleetWatch> {
  const [runs, facts] = await Promise.all([startRunWatch(nc), bindBucket(nc, FACTS_BUCKET).then((kv) => kv.watch({ include: 'updates' }))]);
  return { runs, facts };
}

/** Follows the watches from the runs known when they began; stops them before returning. */
export function followRuns(watch: FleetWatch, known: Map<string, HostRun>, goal: WatchGoal, on: (event: WatchEvent) => void): Promise<WatchEnd> {
  const selected = new Set(goal.hosts);
  // Every host's last run, selected or not: a host's run may come just before the facts that select it.
  const at = new Map(known);
  const atCommit = (run: HostRun | undefined) => goal.commit !== undefined && run?.commit?.startsWith(goal.commit) === true;
  const revertedFrom = (run: HostRun | undefined) => goal.commit !== undefined && run?.reverted?.from.startsWith(goal.commit) === true;
  const done = () => goal.commit !== undefined && ([...selected].every((h) => atCommit(at.get(h))) || [...selected].some((h) => revertedFrom(at.get(h))));
  const select = (host: string) => {
    selected.add(host);
    on({ kind: 'selected', host });
    const run = at.get(host);
    if (run !== undefined) on({ kind: 'run', run });
  };
  return new Promise<WatchEnd>((resolve) => {
    let over = false;
    const end = () => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      watch.runs.stop();
      watch.facts.stop();
      const hosts = [...selected].sort();
      resolve({
        reached: hosts.every((h) => atCommit(at.get(h))),
        hosts,
        missing: hosts.filter((h) => !atCommit(at.get(h))),
        failed: hosts.filter((h) => atCommit(at.get(h)) && !at.get(h)!.success),
        reverted: hosts.filter((h) => revertedFrom(at.get(h))),
      });
    };
    const timer = goal.timeoutMs === undefined ? undefined : setTimeout(end, goal.timeoutMs);
    if (done()) return end();
    const follow = async (entries: RunWatch, take: (e: KvWatchEntry) => void) => {
      for await (const e of entries) {
        if (over) break;
        take(e);
        if (done()) return end();
      }
    };
    const runs = follow(watch.runs, (e) => {
      const checked = parse(e, checkRun);
      if (checked === undefined) return;
      if (!checked.ok) return selected.has(e.key) ? on({ kind: 'invalid', host: e.key, problem: checked.problem }) : undefined;
      const run = checked.value;
      at.set(e.key, run);
      if (selected.has(e.key)) on({ kind: 'run', run });
      // With no condition every host is selected, also one that has published no facts.
      else if (goal.where.length === 0) select(e.key);
    });
    const facts = follow(watch.facts, (e) => {
      const checked = parse(e, checkFacts);
      if (checked === undefined) return;
      if (!checked.ok) return selected.has(e.key) ? on({ kind: 'invalid', host: e.key, problem: checked.problem }) : undefined;
      const facts = checked.value;
      const now = matches(facts, goal.where);
      if (now && !selected.has(e.key)) select(e.key);
      else if (!now && selected.has(e.key)) {
        selected.delete(e.key);
        on({ kind: 'unselected', host: e.key });
      }
    });
    // A watch that ends by itself (the connection closed) ends the whole.
    void Promise.race([runs, facts]).then(end, end);
  });
}

/** A value put during the watch, checked; undefined for a delete. */
function parse<T>(e: KvWatchEntry, check: (key: string, v: unknown, nowMs: number) => Checked<T>): Checked<T> | undefined {
  if (e.operation !== 'PUT') return undefined;
  let value: unknown;
  try {
    value = e.json<unknown>();
  } catch {
    return { ok: false, problem: 'what it published is not JSON' };
  }
  return check(e.key, value, Date.now());
}
