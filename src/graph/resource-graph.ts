// The resource graph: nodes are RREFs, edges come from before/after/notify/subscribe (README.md,
// "State files") and from the ordering runners ask for. Unknown references, signals
// a receiver does not accept, and cycles are errors found here, before anything is applied.
import { UserError, type Problem } from '../shared/errors.js';
import { closest } from '../shared/suggest.js';
import { SIGNAL_NAME } from '../shared/validate.js';
import { keyLocation, type OrderingKey, type Resource } from '../state/resource.js';
import type { Adjacency } from './adjacency.js';
import { describeCycle, findCycles } from './cycles.js';
import { ResourceEdges } from './edges.js';
import { MinHeap } from './min-heap.js';
import { expandModuleRefs } from './module-refs.js';

export type EdgeKind = 'before' | 'after' | 'notify' | 'subscribe' | 'autorequire';

export interface Notification {
  from: string;
  to: string;
  signal: string;
}

export interface ResourceGraph {
  resources: Resource[];
  byRef: Map<string, Resource>;
  /** Edges point from the resource applied first to the one applied after it. */
  graph: ResourceEdges;
  /** Apply order: a topological order that keeps definition order wherever the edges allow. */
  order: string[];
  /** What each notifier sends if it changes. */
  notifications: Notification[];
}

export interface GraphOptions {
  /**
   * Ordering edges the runners ask for (from is applied first); an explicit edge between the same two
   * wins. A weak one is also left out where the graph already leads from `to` to `from`.
   */
  autorequire?: { from: string; to: string; weak?: boolean }[];
  /** Why the receiver would refuse a signal, or undefined when it accepts it. */
  refuseSignal?(to: Resource, signal: string): string | undefined;
}

export function buildResourceGraph(declared: Resource[], options: GraphOptions = {}): ResourceGraph {
  const expanded = expandModuleRefs(declared, options.refuseSignal);
  const resources = expanded.resources;
  const byRef = new Map(resources.map((r) => [r.ref, r]));
  const graph = new ResourceEdges(resources.map((r) => r.ref));
  const adjacency = graph.adjacency;
  const problems: Problem[] = [...expanded.problems];
  const notifications: Notification[] = [];

  const resolve = (text: string): string | undefined => {
    if (byRef.has(text)) return text;
    const hash = text.indexOf('#'); // the seeds' type#name form
    if (hash > 0) {
      const ref = `${text.slice(0, hash)}:${text.slice(hash + 1)}`;
      if (byRef.has(ref)) return ref;
    }
    return undefined;
  };
  const edge = (from: string, to: string, kind: EdgeKind, label: string) => {
    graph.set(from, to, label, `${kind}:${label}`);
  };

  for (const r of resources) {
    const problem = (key: OrderingKey, message: string) => problems.push({ ...keyLocation(r, key), message: `${r.ref}: ${message}` });
    const unknown = (key: OrderingKey, text: string) =>
      problem(key, `${key} names "${text}", which is not a resource in this state tree${suggestRef(text, byRef)}`);
    const refused = (key: OrderingKey, text: string, to: string, signal: string) => {
      const why = options.refuseSignal?.(byRef.get(to)!, signal);
      if (why !== undefined) problem(key, `${key} "${text}": ${why}`);
    };
    for (const text of r.links.before) {
      const to = resolve(text);
      if (to) edge(r.ref, to, 'before', 'before');
      else unknown('before', text);
    }
    for (const text of r.links.after) {
      const from = resolve(text);
      if (from) edge(from, r.ref, 'after', 'after');
      else unknown('after', text);
    }
    for (const text of r.links.subscribe) {
      const from = resolve(text);
      if (from) {
        edge(from, r.ref, 'subscribe', 'subscribe');
        notifications.push({ from, to: r.ref, signal: 'refresh' });
        refused('subscribe', text, r.ref, 'refresh');
      } else {
        // `file:/etc/app.conf:restart`: subscribe takes no signal (it always means refresh); name the resource it would be.
        const last = text.lastIndexOf(':');
        const without = last > text.indexOf(':') ? resolve(text.slice(0, last)) : undefined;
        if (without) {
          problem('subscribe', `subscribe "${text}": subscribe takes a resource, not a signal (it always sends refresh); write "${without}", or notify = ["${r.ref}:${text.slice(last + 1)}"] on ${without}`);
        } else unknown('subscribe', text);
      }
    }
    for (const text of r.links.notify) {
      const target = resolveNotify(text, resolve, byRef);
      if (typeof target === 'string') {
        problem('notify', target);
        continue;
      }
      edge(r.ref, target.to, 'notify', `notify ${target.signal}`);
      notifications.push({ from: r.ref, to: target.to, signal: target.signal });
      refused('notify', text, target.to, target.signal);
    }
  }
  // A reference to no resource adds no edge, and the cycles among the others are still found.
  const joined = (v: string, w: string) => adjacency.joined(v, w);
  const weak = new Map<string, string[]>();
  for (const { from, to, weak: isWeak } of options.autorequire ?? []) {
    if (isWeak) weak.set(from, [...(weak.get(from) ?? []), to]);
    else if (!joined(from, to) && !joined(to, from)) edge(from, to, 'autorequire', 'autorequire');
  }
  // One source at a time: its edges cannot add to what leads to it, so its ancestors are read once.
  for (const [from, targets] of weak) {
    const above = adjacency.ancestors(from);
    for (const to of targets) if (!above.has(to) && !joined(from, to)) edge(from, to, 'autorequire', 'autorequire');
  }

  // Nodes 0 to byRef.size - 1 are the tree's resources, one a ref: `govern check` goes on past a
  // duplicate, whose two resources are one node.
  const cycles = findCycles(adjacency, byRef.size);
  problems.push(...cycleProblems(graph, cycles, byRef));
  if (problems.length > 0) throw new UserError(problems);
  return { resources, byRef, graph, order: stableOrder(adjacency, byRef), notifications };
}

/**
 * `runner:name:signal`, or an RREF alone for `refresh`; returns a problem as a string. The runner is
 * up to the first colon and the signal after the last, so a name may hold colons (`pkg:libc6:amd64`);
 * text with a single colon is an RREF, whatever follows the colon.
 */
function resolveNotify(text: string, resolve: (t: string) => string | undefined, byRef: Map<string, Resource>): { to: string; signal: string } | string {
  const whole = resolve(text);
  if (whole) return { to: whole, signal: 'refresh' };
  const last = text.lastIndexOf(':');
  const unknown = `notify names "${text}", which is not a resource in this state tree${suggestRef(text, byRef)}`;
  if (last <= 0) return `notify "${text}" is not a resource; write runner:name or runner:name:signal`;
  if (last === text.indexOf(':')) return unknown;
  const to = resolve(text.slice(0, last));
  const signal = text.slice(last + 1);
  if (!to) return `notify "${text}": "${text.slice(0, last)}" is not a resource in this state tree${suggestRef(text, byRef)}`;
  if (!SIGNAL_NAME.test(signal)) return `notify "${text}": "${signal}" is not a valid signal name (letters, digits, _ . -)`;
  return { to, signal };
}

/** One problem per cycle, at its earliest resource, in definition order. */
function cycleProblems(graph: ResourceEdges, cycles: string[][], byRef: Map<string, Resource>): Problem[] {
  const order = (ref: string) => byRef.get(ref)!.index;
  return cycles
    .map((members) => members.reduce((a, b) => (order(b) < order(a) ? b : a)))
    .map((start, i) => ({ start, loop: describeCycle(graph, cycles[i], start, order) }))
    .sort((a, b) => order(a.start) - order(b.start))
    .map(({ start, loop }) => ({ ...byRef.get(start)!.at, message: `dependency cycle: ${loop.join(' -> ')}` }));
}

/**
 * ` (did you mean "service:nginx"?)` for a reference, or a notify string, close to an existing one;
 * a notify string keeps its signal in the suggestion.
 */
function suggestRef(text: string, byRef: Map<string, Resource>): string {
  const last = text.lastIndexOf(':');
  const signal = last > text.indexOf(':') ? text.slice(last) : '';
  const candidates = [...byRef.keys()].flatMap((ref) => (signal ? [ref, ref + signal] : [ref]));
  const near = closest(text, candidates);
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}

/** Kahn's algorithm, always taking the earliest-defined resource that is ready (resource i is node i). */
function stableOrder(adjacency: Adjacency, byRef: Map<string, Resource>): string[] {
  const count = byRef.size;
  // Each node's definition index read once: the heap compares them about n log n times.
  const index = adjacency.refs.slice(0, count).map((ref) => byRef.get(ref)!.index);
  const waiting = Array.from({ length: count }, (_, i) => adjacency.predecessors[i].size);
  const ready = new MinHeap<number>((a, b) => index[a] - index[b]);
  waiting.forEach((n, i) => {
    if (n === 0) ready.push(i);
  });
  const order: string[] = [];
  while (ready.size > 0) {
    const i = ready.pop()!;
    order.push(adjacency.refs[i]);
    // A node that is no resource (an edge's end the tree does not define) never becomes ready.
    for (const next of adjacency.successors[i]) if (next < count && --waiting[next] === 0) ready.push(next);
  }
  return order;
}
