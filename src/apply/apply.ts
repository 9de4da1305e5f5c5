// Applies the resources in graph order, up to `jobs` at a time. A resource starts when everything
// ordered before it has finished; one whose predecessor failed or was skipped is skipped, and so
// are its own dependents, while independent resources still apply. Resources left out of the
// selection (--tags) are not applied and not reported; the order among the others is kept.
import { MinHeap } from '../graph/min-heap.js';
import type { KnownRunner } from '../describe/plan-resources.js';
import type { Plan } from '../graph/plan.js';
import { resourceReport, skippedResource } from '../report/build.js';
import type { ResourceReport } from '../report/types.js';
import type { Call, CallResult } from './invoke.js';

export interface ApplyOptions {
  jobs: number;
  runners: Map<string, KnownRunner>;
  /** The resources to apply; all when undefined. */
  selected?: ReadonlySet<string>;
  call(call: Call): Promise<CallResult>;
  onStart?(call: Call): void;
  onDone?(report: ResourceReport): void;
}

export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<Map<string, ResourceReport>> {
  const { graph, byRef } = plan;
  const reports = new Map<string, ResourceReport>();
  const position = new Map(plan.order.map((ref, i) => [ref, i]));
  const waiting = new Map(plan.order.map((ref) => [ref, new Set(graph.predecessors(ref) ?? []).size]));
  /** What failed upstream of a resource. */
  const blockedBy = new Map<string, string>();
  const ready = new MinHeap<string>((a, b) => position.get(a)! - position.get(b)!);
  for (const ref of plan.order) if (waiting.get(ref) === 0) ready.push(ref);

  let running = 0;
  return new Promise((resolve, reject) => {
    /** A resource is done: applied (report), skipped (report), or left out (none). */
    const finish = (ref: string, report?: ResourceReport) => {
      if (report) {
        reports.set(ref, report);
        options.onDone?.(report);
      }
      const cause = report?.status === 'failed' ? ref : blockedBy.get(ref);
      for (const next of new Set(graph.successors(ref) ?? [])) {
        if (cause !== undefined && !blockedBy.has(next)) blockedBy.set(next, cause);
        const left = waiting.get(next)! - 1;
        waiting.set(next, left);
        if (left === 0) ready.push(next);
      }
    };
    const pump = () => {
      while (ready.size > 0 && running < options.jobs) {
        const ref = ready.pop()!;
        const resource = byRef.get(ref)!;
        const cause = blockedBy.get(ref);
        if (options.selected && !options.selected.has(ref)) finish(ref);
        else if (cause !== undefined) finish(ref, skippedResource(resource, cause));
        else {
          const call: Call = { resource, executable: options.runners.get(resource.type)!.executable };
          running++;
          options.onStart?.(call);
          safeCall(options.call, call).then((result) => {
            running--;
            finish(ref, resourceReport(resource, result));
            pump();
          }, reject);
        }
      }
      if (ready.size === 0 && running === 0) resolve(reports);
    };
    pump();
  });
}

/** A call that throws (a bug, or a resource that cannot be invoked) fails that resource, not the run. */
export async function safeCall(call: (c: Call) => Promise<CallResult>, c: Call): Promise<CallResult> {
  try {
    return await call(c);
  } catch (e) {
    return { ok: false, changed: false, message: `govern could not run the runner: ${(e as Error)?.message ?? e}`, log: [], durationMs: 0 };
  }
}
