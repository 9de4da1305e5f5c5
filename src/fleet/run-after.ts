// What `govern listen` does after it has started a run for a request: makes sure a run that began
// after the request takes the run lock. A start asked while govern.service runs (the timer's run, a
// oneshot service) is merged by systemd into that run, which began before the request, so nothing
// else would follow it; and its record, published as it ends, comes before its process (and so the
// service) has ended, so asking again at once is merged too. The run lock's record names the run
// holding it, or the last one, and when it began: until a run that began after the request holds it,
// the start is asked again each time no run is under way (less often each time).
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RUN_LOCK_NAME, type LockHolder } from '../lock/run-lock.js';
import { lockDir } from '../shared/lock-dir.js';

export interface RunAfterOptions {
  /** The host's clock when the request came, in ms. */
  sinceMs: number;
  /** Asks for a start again; resolves to why it failed, or undefined. */
  start(): Promise<string | undefined>;
  /** How often to look at the run lock's record. */
  everyMs?: number;
  /** When to stop looking (the unit's own limit on a run: two hours). */
  giveUpMs?: number;
  stopped(): boolean;
  warn(text: string): void;
  lockDir?: string;
}

export async function ensureRunAfter(o: RunAfterOptions): Promise<void> {
  const file = path.join(o.lockDir ?? lockDir(), RUN_LOCK_NAME);
  const end = Date.now() + (o.giveUpMs ?? 2 * 3600_000);
  const every = o.everyMs ?? 1_000;
  let wait = every;
  for (;;) {
    // First a while for the start just asked to take the lock.
    await sleep(wait, undefined, { ref: false });
    if (Date.now() >= end || o.stopped()) return;
    const holder = readHolder(file);
    if (holder !== undefined && Date.parse(holder.started_at) >= o.sinceMs) return;
    // An older run under way: it ends first. None: the start was merged into a run that has ended
    // (or the run asked for is still pulling, which another start joins without harm).
    if (holder === undefined || !alive(holder.pid)) {
      const problem = await o.start();
      if (problem !== undefined) return o.warn(problem);
      // Each start asked again waits twice as long for its run (up to a minute): a run that fails
      // before it takes the lock (its options refused) is not started every second for hours.
      wait = Math.min(wait * 2, 60_000);
    } else wait = every;
  }
}

/**
 * The listener's follow-ups, one at a time: a run that began after the latest request began after
 * every earlier one too, so a request that comes while one is followed moves its target on rather
 * than starting runs of its own (requests sent again and again would each ask for starts for hours).
 */
export class RunFollower {
  private sinceMs = -Infinity;
  private following = false;

  constructor(private readonly o: Omit<RunAfterOptions, 'sinceMs'>) {}

  /** A follow-up is under way: a request now joins it. */
  get busy(): boolean {
    return this.following;
  }

  /** Follows a request that came at `sinceMs`; resolves when the follow-up it joined has ended. */
  async after(sinceMs: number): Promise<void> {
    this.sinceMs = Math.max(this.sinceMs, sinceMs);
    if (this.following) return;
    this.following = true;
    try {
      for (;;) {
        const target = this.sinceMs;
        await ensureRunAfter({ ...this.o, sinceMs: target });
        if (this.sinceMs === target || this.o.stopped()) return;
      }
    } finally {
      this.following = false;
    }
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) && typeof holder.started_at === 'string' ? holder : undefined;
  } catch {
    return undefined; // no run yet, or one writing its record
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
