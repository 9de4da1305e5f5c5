// One run: apply the plan, then send notifications; the report's entries, in apply order. The
// run's directory and persistent runners can be had before the plan (RunSession).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KnownRunner } from '../describe/describe-runner.js';
import type { ResourceGraph } from '../graph/resource-graph.js';
import type { PhaseClock } from '../report/timing.js';
import type { NotificationReport, ResourceReport } from '../report/types.js';
import { interruptedBy } from '../shared/interrupt.js';
import { tooLongArgument } from '../shared/protocol.js';
import { applyPlan } from './apply.js';
import { callArgv, callEnv, type Call, type CallResult } from '../state/runner-call.js';
import { invokeRunner, runnerProcessEnv, type RunContext, type RunnerMode } from './invoke.js';
import { sendNotifications } from './notify.js';
import { runEndRequests } from './run-end.js';
import { RunnerPool } from './persistent-pool.js';
import { builtInRunnerHost } from './runner-host.js';

/** What a run needs before its plan is known. */
export interface SessionOptions extends Omit<RunContext, 'runDir'> {
  jobs: number;
  /** persistent: runners whose description says so are started once per run; oneshot: a process per call. */
  runnerMode: RunnerMode;
}

export interface RunOptions {
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

/**
 * One run's private directory (GOVERN_RUN_DIR) and, in persistent mode, its runner processes. It is
 * opened before planning, so that the runners the tree is expected to use start while govern plans.
 */
export class RunSession {
  private readonly ctx: RunContext;
  /** In one-shot mode, made when a call first needs it (offCommandLine). */
  private pool: RunnerPool | undefined;
  private readonly removeRunDir: () => void;
  private closed = false;
  /** Calls sent and not yet answered. */
  private readonly underway = new Map<Call, Promise<CallResult>>();

  constructor(private readonly options: SessionOptions) {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-run-'));
    this.removeRunDir = () => fs.rmSync(runDir, { recursive: true, force: true });
    process.once('exit', this.removeRunDir); // an interrupted run (SIGINT) leaves nothing behind either
    this.ctx = { ...options, runDir };
    this.pool = options.runnerMode === 'persistent' ? this.newPool() : undefined;
  }

  private newPool(): RunnerPool {
    return new RunnerPool(runnerProcessEnv(this.ctx), this.options.jobs, this.options.timeoutMs, builtInRunnerHost());
  }

  /** Starts these persistent runners now (in oneshot mode, nothing). */
  warm(executables: Iterable<string>): void {
    this.pool?.warm(executables);
  }

  async execute(plan: ResourceGraph, options: RunOptions): Promise<RunEntries> {
    const { ctx } = this;
    const persistent = new Set([...options.runners.values()].filter((r) => r.description?.persistent === true).map((r) => r.executable));
    const used = plan.resources.filter((r) => !options.selected || options.selected.has(r.ref)).map((r) => options.runners.get(r.type)!.executable);
    this.warm([...new Set(used)].filter((executable) => persistent.has(executable)));
    const queues = (executable: string) => this.options.runnerMode === 'persistent' && persistent.has(executable);
    const invoke = (c: Call): Promise<CallResult> => {
      if (!persistent.has(c.executable) || (!this.pool && !offCommandLine(c))) return invokeRunner(c, ctx);
      this.pool ??= this.newPool();
      return this.pool.call(c.executable, { argv: callArgv(c), env: callEnv(c, ctx.noop) });
    };
    const call = (c: Call): Promise<CallResult> => {
      // Once govern is interrupted nothing more starts, and the run goes no further: govern records
      // what was applied and exits (src/cli/main.ts).
      if (interruptedBy() !== undefined) return new Promise(() => undefined);
      const result = invoke(c);
      this.underway.set(c, result);
      return result.finally(() => this.underway.delete(c));
    };
    return applyAndNotify(plan, { ...options, jobs: this.options.jobs, noop: ctx.noop, runDir: ctx.runDir }, call, queues);
  }

  /**
   * The calls under way, once they have ended or `waitMs` has passed, for the record of an
   * interrupted run: each told to stop has a moment to answer (with its log).
   */
  async stillUnderway(waitMs: number): Promise<Call[]> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([Promise.allSettled([...this.underway.values()]), waited]);
    clearTimeout(timer);
    return [...this.underway.keys()];
  }

  /** Ends the runner processes and removes the run's directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.pool?.closeAll();
    } finally {
      process.removeListener('exit', this.removeRunDir);
      this.removeRunDir();
    }
  }
}

/**
 * Even in one-shot mode, a call goes through the persistent protocol (stdin) when a value is too long
 * for a command line, or when the resource is sensitive or gives a secret key: every local user can read a command line
 * in /proc. Planning refused such a call to a runner that cannot take it (describe/check-sizes.ts).
 */
function offCommandLine(c: Call): boolean {
  return c.resource.sensitive === true || (c.resource.secretKeys?.length ?? 0) > 0 || tooLongArgument(callArgv(c)) !== undefined;
}

async function applyAndNotify(
  plan: ResourceGraph,
  options: RunOptions & { jobs: number; noop: boolean; runDir: string },
  call: (c: Call) => Promise<CallResult>,
  queues: (executable: string) => boolean,
): Promise<RunEntries> {
  const { clock } = options;
  const reports = await clock.time('apply', () =>
    applyPlan(plan, { jobs: options.jobs, noop: options.noop, runners: options.runners, selected: options.selected, call, queues, onStart: options.onStart, onDone: options.onResource }),
  );
  const notifyOptions = { noop: options.noop, runners: options.runners, call, onStart: options.onStart, onDone: options.onNotification };
  const notifications = await clock.time('notify', async () => {
    const sent = await sendNotifications(plan, reports, notifyOptions);
    // Then what runners left for the end of the run (src/apply/run-end.ts).
    const late = runEndRequests(options.runDir, plan, reports, options.runners);
    return late.length === 0 ? sent : [...sent, ...(await sendNotifications(plan, reports, notifyOptions, late))];
  });
  return { resources: plan.order.filter((ref) => reports.has(ref)).map((ref) => reports.get(ref)!), notifications };
}
