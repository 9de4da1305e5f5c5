// In noop mode nothing is created, so a resource whose check needs what an earlier one would create
// (a file owned by a user not yet there, a service whose package is not installed) cannot look it
// up. govern tells each call which resources it is ordered after (directly or not) would change:
// GOVERN_NOOP_PENDING, their RREFs one a line, nearest first (docs/runners.md). Only what the call is
// ordered after counts: that is finished before the call starts, whatever --jobs and runner mode do.
// In a real run the same list holds the changes `noop = true` held back, and puts what comes after
// them in noop mode too (apply.ts).

/** What the graph is asked: graph/edges.ts's, or any graph that answers the same. */
export interface Predecessors {
  predecessors(ref: string): string[] | undefined | void;
}

/** The RREFs a call gets at most; the nearest are kept. */
export const PENDING_LIMIT = 1000;
/** And their bytes: an environment variable over 128 KiB cannot be passed (Linux's MAX_ARG_STRLEN). */
export const PENDING_BYTES = 64 * 1024;

/**
 * What would change upstream of a resource, shared between resources: a resource that would not
 * change and has one predecessor reuses that one's node, so that a long chain of unchanged
 * resources costs nothing, and a call lists at most PENDING_LIMIT of them however large the graph.
 */
interface Upstream {
  ref?: string;
  from: Upstream[];
}

export class NoopPending {
  private readonly upstream = new Map<string, Upstream | undefined>();

  constructor(private readonly graph: Predecessors) {}

  /** A resource finished; wouldChange: its runner said it would change something (and, in a real run, did not). */
  finished(ref: string, wouldChange: boolean): void {
    const from = [...new Set(this.graph.predecessors(ref) ?? [])].map((p) => this.upstream.get(p)).filter((u): u is Upstream => u !== undefined);
    if (wouldChange) this.upstream.set(ref, { ref, from });
    else if (from.length <= 1) this.upstream.set(ref, from[0]);
    else this.upstream.set(ref, { from });
  }

  /** The RREFs upstream of ref that would change, nearest first. */
  before(ref: string): string[] {
    const refs: string[] = [];
    let bytes = 0;
    const seen = new Set<Upstream>();
    const queue = [...new Set(this.graph.predecessors(ref) ?? [])].map((p) => this.upstream.get(p)).filter((u): u is Upstream => u !== undefined);
    for (let i = 0; i < queue.length && refs.length < PENDING_LIMIT; i++) {
      const node = queue[i];
      if (seen.has(node)) continue;
      seen.add(node);
      if (node.ref !== undefined) {
        bytes += Buffer.byteLength(node.ref) + 1;
        if (bytes > PENDING_BYTES) break;
        refs.push(node.ref);
      }
      queue.push(...node.from);
    }
    return refs;
  }
}
