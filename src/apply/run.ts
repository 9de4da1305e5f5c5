// One run: apply the plan, then send notifications; the report's entries, in apply order.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KnownRunner } from '../describe/plan-resources.js';
import type { Plan } from '../graph/plan.js';
import type { PhaseClock } from '../report/timing.js';
import type { NotificationReport, ResourceReport } from '../report/types.js';
import { tooLongArgument } from '../shared/protocol.js';
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
  /** The resources to apply (--tags); all when undefined. */
  selected?: ReadonlySet<string>;
  clock: PhaseClock;
  onStart?(call: Call): void;
  onResource?(report: ResourceReport): void;
  onNotification?(report: NotificationReport): void;
}

export interface RunEntries {
  /** Applied or skipped, in apply order; resources not selected are left out. */
  resources: ResourceReport[];
  notifications: NotificationReport[];
}

export async function executeRun(plan: Plan, options: RunOptions): Promise<RunEntries> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-run-'));
  const removeRunDir = () => fs.rmSync(runDir, { recursive: true, force: true });
  process.once('exit', removeRunDir); // an interrupted run (SIGINT) leaves nothing behind either
  try {
    const ctx: RunContext = { ...options, runDir };
    const newPool = () => new RunnerPool(runnerProcessEnv(ctx), options.jobs, options.timeoutMs);
    // In one-shot mode, made when a call first needs it (below).
    let pool = options.runnerMode === 'persistent' ? newPool() : undefined;
    const persistent = new Set([...options.runners.values()].filter((r) => r.description?.persistent === true).map((r) => r.executable));
    const used = plan.resources.filter((r) => !options.selected || options.selected.has(r.ref)).map((r) => options.runners.get(r.type)!.executable);
    pool?.warm([...new Set(used)].filter((executable) => persistent.has(executable)));
    const call = (c: Call): Promise<CallResult> => {
      if (!persistent.has(c.executable) || (!pool && !offCommandLine(c))) return invokeRunner(c, ctx);
      pool ??= newPool();
      return pool.call(c.executable, { argv: callArgv(c), env: callEnv(c, options.noop) });
    };
    try {
      return await applyAndNotify(plan, options, call);
    } finally {
      await pool?.closeAll();
    }
  } finally {
    process.removeListener('exit', removeRunDir);
    removeRunDir();
  }
}

/**
 * Even in one-shot mode, a call goes through the persistent protocol (stdin) when a value is too long
 * for a command line, or when the resource is sensitive: every local user can read a command line
 * in /proc. Planning refused such a call to a runner that cannot take it (describe/check-sizes.ts).
 */
function offCommandLine(c: Call): boolean {
  return c.resource.sensitive === true || tooLongArgument(callArgv(c)) !== undefined;
}

async function applyAndNotify(plan: Plan, options: RunOptions, call: (c: Call) => Promise<CallResult>): Promise<RunEntries> {
  const { clock } = options;
  const reports = await clock.time('apply', () =>
    applyPlan(plan, { jobs: options.jobs, runners: options.runners, selected: options.selected, call, onStart: options.onStart, onDone: options.onResource }),
  );
  const notifications = await clock.time('notify', () =>
    sendNotifications(plan, reports, { noop: options.noop, runners: options.runners, call, onStart: options.onStart, onDone: options.onNotification }),
  );
  return { resources: plan.order.filter((ref) => reports.has(ref)).map((ref) => reports.get(ref)!), notifications };
}
