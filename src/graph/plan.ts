// The resource graph: nodes are RREFs, edges come from before/after/notify/subscribe (DESIGN.md,
// "Ordering and notification"). Unknown references and cycles are errors found here, before
// anything is applied.
import path from 'node:path';
import { Graph } from '@dagrejs/graphlib';
import { UserError, type Problem } from '../shared/errors.js';
import type { Resource } from '../state/resource.js';
import { describeCycle, findCycles } from './cycles.js';
import { MinHeap } from './min-heap.js';

export type EdgeKind = 'before' | 'after' | 'notify' | 'subscribe' | 'autorequire';

export interface Notification {
  from: string;
  to: string;
  signal: string;
}

export interface Plan {
  resources: Resource[];
  byRef: Map<string, Resource>;
  /** Edges point from the resource applied first to the one applied after it. */
  graph: Graph;
  /** Apply order: a topological order that keeps definition order wherever the edges allow. */
  order: string[];
  /** What each notifier sends if it changes. */
  notifications: Notification[];
}

const SIGNAL = /^[A-Za-z0-9_.-]+$/;

export function buildPlan(resources: Resource[]): Plan {
  const byRef = new Map(resources.map((r) => [r.ref, r]));
  const graph = new Graph({ directed: true, multigraph: true });
  for (const r of resources) graph.setNode(r.ref, r);
  const problems: Problem[] = [];
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
  const edge = (from: string, to: string, kind: EdgeKind, label: string) => graph.setEdge(from, to, label, `${kind}:${label}`);

  for (const r of resources) {
    const problem = (message: string) => problems.push({ ...r.at, message: `${r.ref}: ${message}` });
    const unknown = (key: string, text: string) => problem(`${key} names "${text}", which is not a resource in this state tree`);
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
      } else unknown('subscribe', text);
    }
    for (const text of r.links.notify) {
      const target = resolveNotify(text, resolve);
      if (typeof target === 'string') {
        problem(`notify "${text}": ${target}`);
        continue;
      }
      edge(r.ref, target.to, 'notify', `notify ${target.signal}`);
      notifications.push({ from: r.ref, to: target.to, signal: target.signal });
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  for (const r of resources) {
    const parent = nearestManagedParent(r, byRef);
    if (parent && !graph.hasEdge(parent, r.ref)) edge(parent, r.ref, 'autorequire', 'autorequire');
  }

  const cycles = findCycles(graph, resources.map((r) => r.ref));
  if (cycles.length > 0) throw new UserError(cycleProblems(graph, cycles, byRef));
  return { resources, byRef, graph, order: stableOrder(graph, resources), notifications };
}

/**
 * A resource named by an absolute path comes after the resource of the same runner that manages
 * its nearest parent directory (Puppet's autorequire for files): `file:/etc/app/app.conf` after
 * `file:/etc/app`, without the user writing it, and whatever --jobs allows.
 */
function nearestManagedParent(r: Resource, byRef: Map<string, Resource>): string | undefined {
  if (!r.name.startsWith('/')) return undefined;
  for (let dir = path.posix.dirname(r.name); ; dir = path.posix.dirname(dir)) {
    const ref = `${r.type}:${dir}`;
    if (ref !== r.ref && byRef.has(ref)) return ref;
    if (dir === '/' || dir === '.') return undefined;
  }
}

/** `runner:name:signal`, or an RREF alone for `refresh`; returns a problem as a string. */
function resolveNotify(text: string, resolve: (t: string) => string | undefined): { to: string; signal: string } | string {
  const whole = resolve(text);
  if (whole) return { to: whole, signal: 'refresh' };
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return 'not a resource; write runner:name or runner:name:signal';
  const to = resolve(text.slice(0, colon));
  const signal = text.slice(colon + 1);
  if (!to) return `"${text.slice(0, colon)}" is not a resource in this state tree`;
  if (!SIGNAL.test(signal)) return `"${signal}" is not a valid signal name (letters, digits, _ . -)`;
  return { to, signal };
}

/** One problem per cycle, at its earliest resource, in definition order. */
function cycleProblems(graph: Graph, cycles: string[][], byRef: Map<string, Resource>): Problem[] {
  const order = (ref: string) => byRef.get(ref)!.index;
  return cycles
    .map((members) => members.reduce((a, b) => (order(b) < order(a) ? b : a)))
    .map((start, i) => ({ start, loop: describeCycle(graph, cycles[i], start, order) }))
    .sort((a, b) => order(a.start) - order(b.start))
    .map(({ start, loop }) => ({ ...byRef.get(start)!.at, message: `dependency cycle: ${loop.join(' -> ')}` }));
}

/** Kahn's algorithm, always taking the earliest-defined resource that is ready. */
function stableOrder(graph: Graph, resources: Resource[]): string[] {
  const indexOf = new Map(resources.map((r) => [r.ref, r.index]));
  const waiting = new Map(resources.map((r) => [r.ref, new Set(graph.predecessors(r.ref) ?? []).size]));
  const ready = new MinHeap<string>((a, b) => indexOf.get(a)! - indexOf.get(b)!);
  for (const [ref, count] of waiting) if (count === 0) ready.push(ref);
  const order: string[] = [];
  while (ready.size > 0) {
    const ref = ready.pop()!;
    order.push(ref);
    for (const next of new Set(graph.successors(ref) ?? [])) {
      const left = waiting.get(next)! - 1;
      waiting.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  return order;
}
