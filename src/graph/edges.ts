// The resource graph's labelled edges over its numbered adjacency (adjacency.ts), in place of
// graphlib's Graph: planning builds the graph once and then only reads it, and graphlib keeps every
// node and edge under string keys in several objects, which cost planning 10,000 resources more than
// the rest of building the graph (bench/README.md, "Round six"). The methods answer as graphlib's
// did: edges in the order they were first added, one edge per (from, to, name), successors and
// predecessors in the order of their first edge, undefined for a node the graph does not know.
import { Adjacency } from './adjacency.js';

export interface Edge {
  v: string;
  w: string;
  name: string;
}

export class ResourceEdges {
  readonly adjacency: Adjacency;
  private readonly list: Edge[] = [];
  private readonly labels: string[] = [];
  /** Each edge's position in the list, by its ends' numbers and its name. */
  private readonly positions = new Map<string, number>();

  /** The nodes, numbered in this order. */
  constructor(refs: Iterable<string>) {
    this.adjacency = new Adjacency(refs);
  }

  /** An edge named `name` from `v` to `w`; one of the same name already there takes the new label. */
  set(v: string, w: string, label: string, name: string): void {
    const key = `${this.adjacency.id(v)} ${this.adjacency.id(w)} ${name}`;
    const at = this.positions.get(key);
    if (at !== undefined) {
      this.labels[at] = label;
      return;
    }
    this.positions.set(key, this.list.length);
    this.list.push({ v, w, name });
    this.labels.push(label);
    this.adjacency.add(v, w);
  }

  edges(): readonly Edge[] {
    return this.list;
  }

  /** The label of an edge (`edge(e)` or `edge(v, w, name)`), undefined when there is none. */
  edge(v: string | Edge, w?: string, name?: string): string | undefined {
    const e = typeof v === 'string' ? { v, w: w!, name: name! } : v;
    const at = this.position(e.v, e.w, e.name);
    return at === undefined ? undefined : this.labels[at];
  }

  /** Whether an edge leads from v to w: of that name, or of any name when none is given. */
  hasEdge(v: string, w: string, name?: string): boolean {
    return name === undefined ? this.adjacency.joined(v, w) : this.position(v, w, name) !== undefined;
  }

  successors(ref: string): string[] | undefined {
    const id = this.adjacency.known(ref);
    return id === undefined ? undefined : [...this.adjacency.successors[id]].map((n) => this.adjacency.refs[n]);
  }

  predecessors(ref: string): string[] | undefined {
    const id = this.adjacency.known(ref);
    return id === undefined ? undefined : [...this.adjacency.predecessors[id]].map((n) => this.adjacency.refs[n]);
  }

  private position(v: string, w: string, name: string): number | undefined {
    const from = this.adjacency.known(v);
    const to = this.adjacency.known(w);
    return from === undefined || to === undefined ? undefined : this.positions.get(`${from} ${to} ${name}`);
  }
}
