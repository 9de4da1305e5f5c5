// Finds the dependency cycles of the resource graph and describes each as a concrete loop. Written
// with explicit stacks, never recursion, so a chain of any length that fits in memory is planned
// (a recursive search overflows the call stack after a few thousand resources).
import type { Graph } from '@dagrejs/graphlib';

/**
 * The strongly connected components that hold a cycle (more than one node, or a node with an edge
 * to itself), by Tarjan's algorithm; nodes are visited in the order given.
 */
export function findCycles(graph: Graph, nodes: string[]): string[][] {
  const index = new Map<string, number>();
  const lowlink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;

  for (const root of nodes) {
    if (index.has(root)) continue;
    // Each frame: a node and the successors it has yet to look at.
    const frames: { node: string; next: string[]; at: number }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      lowlink.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      frames.push({ node, next: graph.successors(node) ?? [], at: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.at < frame.next.length) {
        const next = frame.next[frame.at++];
        if (!index.has(next)) enter(next);
        else if (onStack.has(next)) lowlink.set(frame.node, Math.min(lowlink.get(frame.node)!, index.get(next)!));
        continue;
      }
      frames.pop();
      const { node } = frame;
      const parent = frames[frames.length - 1];
      if (parent) lowlink.set(parent.node, Math.min(lowlink.get(parent.node)!, lowlink.get(node)!));
      if (lowlink.get(node) !== index.get(node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || frame.next.includes(node)) cycles.push(component);
    }
  }
  return cycles;
}

/**
 * A shortest loop from `start` back to itself through the members of its component, preferring
 * earlier nodes (by `order`) where two loops are as short: `[start, ..., start]`.
 */
export function describeCycle(graph: Graph, members: string[], start: string, order: (node: string) => number): string[] {
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
