// One run: apply the plan, then send notifications, and build the report.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KnownRunner } from '../describe/plan-tree.js';
import type { Plan } from '../graph/plan.js';
import { summarize, type NotificationReport, type ResourceReport, type RunReport } from '../report/types.js';
import { applyPlan } from './apply.js';
import { callArgv, callEnv, invokeRunner, runnerProcessEnv, type Call, type CallResult, type RunContext, type RunnerMode } from './invoke.js';
import { sendNotifications } from './notify.js';
import { RunnerPool } from './persistent-pool.js';

export interface RunOptions extends Omit<RunContext, 'runDir'> {
  jobs: number;
  /** persistent: runners whose description says so are started once per run; oneshot: a process per call. */
  runnerMode: RunnerMode;
  /** Block type -> its runner, as planning found and described it. */
  runners: Map<string, KnownRunner>;
  onStart?(call: Call): void;
  onResource?(report: ResourceReport): void;
  onNotification?(report: NotificationReport): void;
}

export async function executeRun(plan: Plan, options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-run-'));
  const removeRunDir = () => fs.rmSync(runDir, { recursive: true, force: true });
  process.once('exit', removeRunDir); // an interrupted run (SIGINT) leaves nothing behind either
  try {
    const ctx: RunContext = { ...options, runDir };
    const pool = options.runnerMode === 'persistent' ? new RunnerPool(runnerProcessEnv(ctx), options.jobs, options.timeoutMs) : undefined;
    const persistent = new Set([...options.runners.values()].filter((r) => r.description?.persistent === true).map((r) => r.executable));
    pool?.warm(persistent);
    const call = (c: Call): Promise<CallResult> =>
      pool && persistent.has(c.executable) ? pool.call(c.executable, { argv: callArgv(c), env: callEnv(c, options.noop) }) : invokeRunner(c, ctx);
    try {
      return await applyAndNotify(plan, options, call, started);
    } finally {
      await pool?.closeAll();
    }
  } finally {
    process.removeListener('exit', removeRunDir);
    removeRunDir();
  }
}

async function applyAndNotify(plan: Plan, options: RunOptions, call: (c: Call) => Promise<CallResult>, started: number): Promise<RunReport> {
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
}
