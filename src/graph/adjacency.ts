// The resource graph's edges by number (a resource's position in the list), under its labelled
// edges (edges.ts): planning asks whether two resources are joined, and for successors and
// predecessors, tens of thousands of times, and graphlib answers each with a new array of string keys.
// A node's successors keep the order their first edge was added in, as graphlib's do, so the searches
// over them visit nodes in the same order.

export class Adjacency {
  private readonly ids = new Map<string, number>();
  readonly refs: string[] = [];
  readonly successors: Set<number>[] = [];
  readonly predecessors: Set<number>[] = [];

  /** Numbers the nodes in this order first. */
  constructor(refs: Iterable<string>) {
    for (const ref of refs) this.id(ref);
  }

  id(ref: string): number {
    let id = this.ids.get(ref);
    if (id === undefined) {
      id = this.refs.length;
      this.ids.set(ref, id);
      this.refs.push(ref);
      this.successors.push(new Set());
      this.predecessors.push(new Set());
    }
    return id;
  }

  /** The node's number, or undefined when no edge or constructor named it. */
  known(ref: string): number | undefined {
    return this.ids.get(ref);
  }

  add(from: string, to: string): void {
    const v = this.id(from);
    const w = this.id(to);
    this.successors[v].add(w);
    this.predecessors[w].add(v);
  }

  /** Whether an edge leads from `from` to `to`. */
  joined(from: string, to: string): boolean {
    const v = this.ids.get(from);
    const w = this.ids.get(to);
    return v !== undefined && w !== undefined && this.successors[v].has(w);
  }

  /** Every node with a path to `ref`. */
  ancestors(ref: string): Set<string> {
    const seen = new Set<number>();
    const start = this.ids.get(ref);
    const stack = start === undefined ? [] : [start];
    while (stack.length > 0) {
      for (const p of this.predecessors[stack.pop()!]) {
        if (!seen.has(p)) {
          seen.add(p);
          stack.push(p);
        }
      }
    }
    return new Set([...seen].map((id) => this.refs[id]));
  }
}
