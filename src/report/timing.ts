// How long the run and each of its phases took. The run is timed from the process's start, so the
// summary tells the time a sysadmin waited. Facts are loaded between render passes: the facts phase
// is the time any fact load is under way, and it is taken out of the render phase.

/**
 * Milliseconds since the process started (monotonic). `process.uptime()` and not node:perf_hooks'
 * `performance.now()`: that module and the ones it loads cost a start a few milliseconds of CPU,
 * about 10 on Debian's Node 18 (bench/README.md, "Round six"); both count from the process's start.
 */
function now(): number {
  return process.uptime() * 1000;
}

export const PHASES = ['facts', 'render', 'parse', 'plan', 'apply', 'notify'] as const;
export type Phase = (typeof PHASES)[number];
export type PhaseTimings = { [P in Phase as `${P}_ms`]: number };

export class PhaseClock {
  private readonly spent = new Map<Phase, number>();
  private readonly running = new Map<Phase, { count: number; since: number }>();

  /** Times work as part of a phase; overlapping work of one phase (two fact loads) counts once. */
  async time<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
    const underway = this.running.get(phase);
    if (underway) underway.count++;
    else this.running.set(phase, { count: 1, since: now() });
    try {
      return await work();
    } finally {
      const r = this.running.get(phase)!;
      if (--r.count === 0) {
        this.running.delete(phase);
        this.spent.set(phase, (this.spent.get(phase) ?? 0) + now() - r.since);
      }
    }
  }

  timings(): PhaseTimings {
    const ms = (phase: Phase) => Math.round(this.spent.get(phase) ?? 0);
    return {
      facts_ms: ms('facts'),
      render_ms: Math.max(0, ms('render') - ms('facts')),
      parse_ms: ms('parse'),
      plan_ms: ms('plan'),
      apply_ms: ms('apply'),
      notify_ms: ms('notify'),
    };
  }
}

/** Milliseconds since this process started. */
export function sinceStart(): number {
  return Math.round(now());
}

/** When this process started, in ISO 8601 (UTC). */
export function startedAt(): string {
  return new Date(Date.now() - now()).toISOString();
}
