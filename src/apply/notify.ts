// The notification phase (after every resource is applied): each notifier that changed sends its
// signals; the same (resource, signal) is sent once, in apply order of the receivers. In noop mode
// they are reported, not sent; to a receiver that failed, was skipped or is not selected, never.
import type { KnownRunner } from '../describe/describe-runner.js';
import type { Notification, ResourceGraph } from '../graph/resource-graph.js';
import { sentNotification, unsentNotification, type PendingNotification } from '../report/build.js';
import type { NotificationReport, ResourceReport } from '../report/types.js';
import { safeCall } from './apply.js';
import type { Call, CallResult } from '../state/runner-call.js';

export interface NotifyOptions {
  noop: boolean;
  runners: Map<string, KnownRunner>;
  call(call: Call): Promise<CallResult>;
  onStart?(call: Call): void;
  onDone?(report: NotificationReport): void;
}

/** A notifier sends its signals only when it changed (or, with noop = true, would have: then they are reported, not sent). */
export function sends(n: Notification, reports: ReadonlyMap<string, ResourceReport>): boolean {
  const report = reports.get(n.from);
  return report?.status === 'changed' || report?.would_change === true;
}

export function pendingNotifications(plan: ResourceGraph, reports: ReadonlyMap<string, ResourceReport>): PendingNotification[] {
  const byKey = new Map<string, PendingNotification>();
  for (const n of plan.notifications) {
    if (!sends(n, reports)) continue;
    const key = JSON.stringify([n.to, n.signal]);
    const entry = byKey.get(key) ?? { to: n.to, signal: n.signal, from: [] };
    if (!entry.from.includes(n.from)) entry.from.push(n.from);
    byKey.set(key, entry);
  }
  const position = new Map(plan.order.map((ref, i) => [ref, i]));
  return [...byKey.values()].sort((a, b) => position.get(a.to)! - position.get(b.to)!);
}

/** `pending`: the notifications to send, by default those of the notifiers that changed. */
export async function sendNotifications(
  plan: ResourceGraph,
  reports: ReadonlyMap<string, ResourceReport>,
  options: NotifyOptions,
  pending: PendingNotification[] = pendingNotifications(plan, reports),
): Promise<NotificationReport[]> {
  const results: NotificationReport[] = [];
  for (const n of pending) {
    const target = reports.get(n.to);
    let report: NotificationReport;
    if (!target) {
      report = unsentNotification(n, 'skipped', `not sent: ${n.to} is not selected`);
    } else if (target.status === 'failed' || target.status === 'skipped') {
      report = unsentNotification(n, 'skipped', `not sent: ${n.to} ${target.status}`);
    } else if (options.noop) {
      report = unsentNotification(n, 'noop', `Would have sent ${n.signal}`);
    } else if (plan.byRef.get(n.to)?.noop === true || target.would_change !== undefined || !n.from.some((from) => reports.get(from)?.status === 'changed')) {
      // The receiver has noop = true or was held back by one, or only notifiers held back would have changed.
      report = unsentNotification(n, 'noop', `Would have sent ${n.signal} (noop = true)`);
    } else {
      const resource = plan.byRef.get(n.to)!;
      const call: Call = { resource, executable: options.runners.get(resource.type)!.executable, signal: n.signal };
      options.onStart?.(call);
      report = sentNotification(n, await safeCall(options.call, call), resource);
    }
    results.push(report);
    options.onDone?.(report);
  }
  return results;
}
