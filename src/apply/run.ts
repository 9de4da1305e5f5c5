// One run: apply the plan, then send notifications, and build the report.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Plan } from '../graph/plan.js';
import { summarize, type NotificationReport, type ResourceReport, type RunReport } from '../report/types.js';
import { applyPlan } from './apply.js';
import { invokeRunner, type Call, type RunContext } from './invoke.js';
import { sendNotifications } from './notify.js';

export interface RunOptions extends Omit<RunContext, 'runDir'> {
  jobs: number;
  runners: Map<string, string>;
  onStart?(call: Call): void;
  onResource?(report: ResourceReport): void;
  onNotification?(report: NotificationReport): void;
}

export async function executeRun(plan: Plan, options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-run-'));
  try {
    const ctx: RunContext = { ...options, runDir };
    const call = (c: Call) => invokeRunner(c, ctx);
    const reports = await applyPlan(plan, { jobs: options.jobs, runners: options.runners, call, onStart: options.onStart, onDone: options.onResource });
    const notifications = await sendNotifications(plan, reports, {
      noop: options.noop,
      runners: options.runners,
      call,
      onStart: options.onStart,
      onDone: options.onNotification,
    });
    const resources = plan.order.map((ref) => reports.get(ref)!);
    return { noop: options.noop, resources, notifications, summary: summarize(resources, notifications, Date.now() - started) };
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}
