// Applies the resources in graph order, up to `jobs` at a time. A resource starts when everything
// ordered before it has finished; one whose predecessor failed or was skipped is skipped, and so
// are its own dependents, while independent resources still apply. Resources left out of the
// selection (--tags) are not applied and not reported; the order among the others is kept.
// A resource with noop = true changes nothing in a real run; what is ordered after one of its
// changes is called in noop mode too, as a --noop run would call it (GOVERN_NOOP_PENDING).
// A runner that takes requests in a queue (a persistent one) is sent the next resource in apply
// order while it works on the previous one, when that resource is ready: the runner handles them in
// the same order, so only the wait for each answer goes away.
import { MinHeap } from '../graph/min-heap.js';
import type { KnownRunner } from '../describe/describe-runner.js';
import type { ResourceGraph } from '../graph/resource-graph.js';
import { resourceReport, skippedResource } from '../report/build.js';
import type { ResourceReport } from '../report/types.js';
import type { Call, CallResult } from '../state/runner-call.js';
import { isPurging, managedChildren } from './managed-children.js';
import { NoopPending } from './noop-pending.js';

export interface ApplyOptions {
  jobs: number;
  /** Noop mode: each call is told what the resources it comes after would change (GOVERN_NOOP_PENDING). */
  noop?: boolean;
  runners: Map<string, KnownRunner>;
  /** The resources to apply; all when undefined. */
  selected?: ReadonlySet<string>;
  call(call: Call): Promise<CallResult>;
  /** The runner handles calls one at a time in the order they were sent: the next may be sent before the answer. */
  queues?(executable: string): boolean;
  onStart?(call: Call): void;
  onDone?(report: ResourceReport): void;
}

export async function applyPlan(plan: ResourceGraph, options: ApplyOptions): Promise<Map<string, ResourceReport>> {
  const { graph, byRef } = plan;
  const reports = new Map<string, ResourceReport>();
  const position = new Map(plan.order.map((ref, i) => [ref, i]));
  const waiting = new Map(plan.order.map((ref) => [ref, new Set(graph.predecessors(ref) ?? []).size]));
  /** What failed upstream of a resource. */
  const blockedBy = new Map<string, string>();
  const ready = new MinHeap<string>((a, b) => position.get(a)! - position.get(b)!);
  // In a real run, what comes after a resource that noop = true kept from changing is checked as a
  // --noop run checks it: what that resource would have made is not there (docs/runners.md).
  const pending = options.noop || plan.resources.some((r) => r.noop === true) ? new NoopPending(graph) : undefined;
  // What a purge keeps is worked out when the purge is called, after what it is ordered after has
  // run: a user created earlier in the run has a home by then (docs/runners.md, "Managed children").
  const purging = new Set(plan.resources.filter(isPurging).map((r) => r.ref));
  const managedOf = (ref: string) => managedChildren(byRef.values(), (runner) => options.runners.get(runner)?.description).get(ref);
  // A purge is applied alone, even with --jobs: what comes before it in apply order has finished, and
  // what comes after waits for it. Run beside another runner writing in its directory (a cron job,
  // an authorized_keys of a user made in this run), it would see and remove that runner's temporary
  // file, or miss a home not made yet (docs/runners.md, "Managed children").
  const barriers = plan.order.filter((ref) => purging.has(ref));
  const finished = new Set<string>();
  let settled = 0;
  /** Whether a purge stands between the resources finished so far and `ref` in apply order. */
  const heldByPurge = (ref: string): boolean => {
    while (settled < plan.order.length && finished.has(plan.order[settled])) settled++;
    const barrier = barriers.find((b) => !finished.has(b));
    if (barrier === undefined) return false;
    const at = position.get(ref)!;
    const barrierAt = position.get(barrier)!;
    return at > barrierAt || (at === barrierAt && (settled < at || running > 0));
  };
  for (const ref of plan.order) if (waiting.get(ref) === 0) ready.push(ref);

  /** Slots in use (at most `jobs`), and per runner, slots and calls under way (a slot's queue may hold several). */
  let running = 0;
  const slots = new Map<string, number>();
  const calls = new Map<string, number>();
  /** Calls sent behind another of the same runner, announced (onStart) when the runner gets to them. */
  const unannounced = new Map<string, Call[]>();
  /** Apply order up to `cursor` is dispatched (or done without a call). */
  const dispatched = new Set<string>();
  let cursor = 0;
  const nextInOrder = (): string | undefined => {
    while (cursor < plan.order.length && dispatched.has(plan.order[cursor])) cursor++;
    return plan.order[cursor];
  };
  return new Promise((resolve, reject) => {
    /** A resource is done: applied (report), skipped (report), or left out (none). */
    const finish = (ref: string, report?: ResourceReport) => {
      finished.add(ref);
      if (report) {
        reports.set(ref, report);
        options.onDone?.(report);
      }
      pending?.finished(ref, report !== undefined && (options.noop ? report.status === 'changed' : report.would_change === true));
      const cause = report?.status === 'failed' ? ref : blockedBy.get(ref);
      for (const next of new Set(graph.successors(ref) ?? [])) {
        if (cause !== undefined && !blockedBy.has(next)) blockedBy.set(next, cause);
        const left = waiting.get(next)! - 1;
        waiting.set(next, left);
        if (left === 0) ready.push(next);
      }
    };
    const start = (ref: string, call: Call) => {
      const { executable } = call;
      const underway = calls.get(executable) ?? 0;
      calls.set(executable, underway + 1);
      let unknown: Error | undefined;
      try {
        if (purging.has(ref)) call.managed = managedOf(ref);
      } catch (e) {
        unknown = e as Error;
      }
      if (underway === 0) options.onStart?.(call);
      else unannounced.set(executable, [...(unannounced.get(executable) ?? []), call]);
      safeCall(unknown ? () => Promise.reject(unknown) : options.call, call).then((result) => {
        const left = calls.get(executable)! - 1;
        calls.set(executable, left);
        if (left < (slots.get(executable) ?? 0)) {
          slots.set(executable, left);
          running--;
        }
        finish(ref, resourceReport(call.resource, result, options.noop, call.heldAfter));
        const following = unannounced.get(executable)?.shift();
        if (following) options.onStart?.(following);
        pump();
      }, reject);
    };
    const pump = () => {
      while (ready.size > 0) {
        const ref = ready.peek()!;
        if (barriers.length > 0 && heldByPurge(ref)) break;
        const resource = byRef.get(ref)!;
        const cause = blockedBy.get(ref);
        // Skipped when a slot is free, as if it took one: the order of the reports stays apply order.
        const leftOut = options.selected !== undefined && !options.selected.has(ref);
        if (leftOut || cause !== undefined) {
          if (running >= options.jobs) break;
          ready.pop();
          dispatched.add(ref);
          finish(ref, leftOut ? undefined : skippedResource(resource, cause!));
          continue;
        }
        const call: Call = { resource, executable: options.runners.get(resource.type)!.executable };
        if (pending) call.pending = pending.before(ref);
        if (!options.noop && call.pending?.length) call.heldAfter = heldBack(call.pending, byRef);
        if (running < options.jobs) {
          running++;
          slots.set(call.executable, (slots.get(call.executable) ?? 0) + 1);
        } else if (!((calls.get(call.executable) ?? 0) > 0 && options.queues?.(call.executable) && nextInOrder() === ref)) break;
        ready.pop();
        dispatched.add(ref);
        start(ref, call);
      }
      if (ready.size === 0 && running === 0) resolve(reports);
    };
    pump();
  });
}

/** Of the held changes upstream (nearest first), those of resources with noop = true: the reason the call is held too. */
function heldBack(pending: readonly string[], byRef: ResourceGraph['byRef']): string[] {
  const roots = pending.filter((ref) => byRef.get(ref)?.noop === true);
  return roots.length > 0 ? roots : [pending[0]];
}

/** A call that throws (a bug, or a resource that cannot be invoked) fails that resource, not the run. */
export async function safeCall(call: (c: Call) => Promise<CallResult>, c: Call): Promise<CallResult> {
  try {
    return await call(c);
  } catch (e) {
    return { ok: false, changed: false, message: `govern could not run the runner: ${(e as Error)?.message ?? e}`, log: [], durationMs: 0 };
  }
}
