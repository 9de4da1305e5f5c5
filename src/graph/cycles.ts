// Finds the dependency cycles of the resource graph and describes each as a concrete loop. Written
// with explicit stacks, never recursion, so a chain of any length that fits in memory is planned
// (a recursive search overflows the call stack after a few thousand resources).
import type { Adjacency } from './adjacency.js';
import type { ResourceEdges } from './edges.js';

/**
 * The strongly connected components that hold a cycle (more than one node, or a node with an edge
 * to itself), by Tarjan's algorithm; the roots are nodes 0 to roots - 1, visited in that order.
 */
export function findCycles(graph: Adjacency, roots: number): string[][] {
  const size = graph.refs.length;
  const index = new Int32Array(size).fill(-1);
  const lowlink = new Int32Array(size);
  const onStack = new Uint8Array(size);
  const stack: number[] = [];
  const cycles: string[][] = [];
  let counter = 0;

  for (let root = 0; root < roots; root++) {
    if (index[root] >= 0) continue;
    // Each frame: a node and the successors it has yet to look at.
    const frames: { node: number; next: number[]; at: number }[] = [];
    const enter = (node: number) => {
      index[node] = counter;
      lowlink[node] = counter;
      counter++;
      stack.push(node);
      onStack[node] = 1;
      frames.push({ node, next: [...graph.successors[node]], at: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.at < frame.next.length) {
        const next = frame.next[frame.at++];
        if (index[next] < 0) enter(next);
        else if (onStack[next] === 1) lowlink[frame.node] = Math.min(lowlink[frame.node], index[next]);
        continue;
      }
      frames.pop();
      const { node } = frame;
      const parent = frames[frames.length - 1];
      if (parent) lowlink[parent.node] = Math.min(lowlink[parent.node], lowlink[node]);
      if (lowlink[node] !== index[node]) continue;
      const component: string[] = [];
      let member: number;
      do {
        member = stack.pop()!;
        onStack[member] = 0;
        component.push(graph.refs[member]);
      } while (member !== node);
      if (component.length > 1 || graph.successors[node].has(node)) cycles.push(component);
    }
  }
  return cycles;
}

/**
 * A shortest loop from `start` back to itself through the members of its component, preferring
 * earlier nodes (by `order`) where two loops are as short: `[start, ..., start]`.
 */
export function describeCycle(graph: ResourceEdges, members: string[], start: string, order: (node: string) => number): string[] {
  const inCycle = new Set(members);
  const sorted = (node: string) => (graph.successors(node) ?? []).filter((n) => inCycle.has(n)).sort((a, b) => order(a) - order(b));
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const next of sorted(node)) {
      if (next === start) {
        const loop = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) loop.push(at);
        return [start, ...loop.slice(1).reverse(), start];
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, node);
      queue.push(next);
    }
  }
  return [start, start]; // not reached: every member of a component reaches start
}
