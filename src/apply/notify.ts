// The notification phase (after every resource is applied): each notifier that changed sends its
// signals; the same (resource, signal) is sent once, in apply order of the receivers. In noop mode
// they are reported, not sent.
import type { KnownRunner } from '../describe/plan-tree.js';
import type { Plan } from '../graph/plan.js';
import type { NotificationReport, ResourceReport } from '../report/types.js';
import { safeCall } from './apply.js';
import type { Call, CallResult } from './invoke.js';

export interface NotifyOptions {
  noop: boolean;
  runners: Map<string, KnownRunner>;
  call(call: Call): Promise<CallResult>;
  onStart?(call: Call): void;
  onDone?(report: NotificationReport): void;
}

interface Pending {
  to: string;
  signal: string;
  from: string[];
}

export function pendingNotifications(plan: Plan, reports: Map<string, ResourceReport>): Pending[] {
  const byKey = new Map<string, Pending>();
  for (const n of plan.notifications) {
    if (reports.get(n.from)?.status !== 'changed') continue;
    const key = JSON.stringify([n.to, n.signal]);
    const entry = byKey.get(key) ?? { to: n.to, signal: n.signal, from: [] };
    if (!entry.from.includes(n.from)) entry.from.push(n.from);
    byKey.set(key, entry);
  }
  const position = new Map(plan.order.map((ref, i) => [ref, i]));
  return [...byKey.values()].sort((a, b) => position.get(a.to)! - position.get(b.to)!);
}

export async function sendNotifications(plan: Plan, reports: Map<string, ResourceReport>, options: NotifyOptions): Promise<NotificationReport[]> {
  const results: NotificationReport[] = [];
  for (const n of pendingNotifications(plan, reports)) {
    const base = { from: n.from, to: n.to, signal: n.signal, duration_ms: 0, log: [] as string[] };
    const target = reports.get(n.to);
    let report: NotificationReport;
    if (target?.status === 'failed' || target?.status === 'skipped') {
      report = { ...base, status: 'skipped', message: `not sent: ${n.to} ${target.status}` };
    } else if (options.noop) {
      report = { ...base, status: 'noop', message: `Would have sent ${n.signal}` };
    } else {
      const resource = plan.byRef.get(n.to)!;
      const call: Call = { resource, executable: options.runners.get(resource.type)!.executable, signal: n.signal };
      options.onStart?.(call);
      const result = await safeCall(options.call, call);
      report = { ...base, status: result.ok ? 'sent' : 'failed', message: result.message, duration_ms: result.durationMs, log: result.log };
    }
    results.push(report);
    options.onDone?.(report);
  }
  return results;
}
