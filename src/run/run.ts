// One run end to end, for `govern run` (a tree) and `govern resource` (one resource): the run lock,
// planning, applying with live output, the report, the record, publishing to the fleet, and what an
// interruption leaves (docs/architecture.md, "The flow of one run").
import path from 'node:path';
import type { RunnerMode } from '../apply/invoke.js';
import { RunSession } from '../apply/run.js';
import { forecastRunners, rememberRunners } from '../apply/runner-forecast.js';
import { governExecutable } from '../config/paths.js';
import type { FleetSettings } from '../fleet/settings.js';
import { acquireRunLock } from '../lock/run-lock.js';
import { priorityWriter, summaryPriority } from '../output/priority.js';
import { textPrinter, useColour, type ColourChoice } from '../output/text-output.js';
import { note, out, printError, warn } from '../output/writers.js';
import type { PlannedTree } from '../plan/plan-tree.js';
import type { PlanSettings } from '../plan/settings.js';
import { pulledTree, type PulledTree } from '../pull/store.js';
import { recordRun } from '../record/record.js';
import { errorReport, interruptedReport, runReport, type Applied } from '../report/build.js';
import { exitCode } from '../report/exit-code.js';
import { reportJson } from '../report/json.js';
import { runMeta } from '../report/meta.js';
import { summaryLine, type TextView } from '../report/text.js';
import { PhaseClock, sinceStart, startedAt } from '../report/timing.js';
import type { NotificationReport, ResourceReport, RevertReport, RunMeta, RunReport } from '../report/types.js';
import { UserError } from '../shared/errors.js';
import { interruptedBy, onInterrupt } from '../shared/interrupt.js';
import { KILL_GRACE_MS } from '../shared/process.js';
import { healthLines, runHealth } from './health.js';
import { putBackSource, putBacks } from './restore-resources.js';
import { afterPulledRun, backUpAll, carriedReturn, restoreReplaced } from './revert.js';
import { trackManaged } from './managed-tracking.js';

/**
 * How a run applies, reports and records, resolved from the options once (cli/run-options.ts).
 * The plan settings are made under the run lock, for the tree the target is then (a pulled tree's
 * checkout), so they come as a function of the target.
 */
export interface RunSettings {
  planSettings(target: string): PlanSettings;
  noop: boolean;
  json: boolean;
  quiet: boolean;
  verbose: number;
  noDiff: boolean;
  color: ColourChoice;
  detailedExitcodes: boolean;
  jobs: number;
  runnerMode: RunnerMode;
  runnerTimeout: number;
  lockTimeout: number;
  /** RREFs the tree no longer declares whose removal is not waited for (--forget). */
  forget: string[];
  varDir: string;
  metricsFile?: string;
  /** --no-health: the tree's health checks are not run (docs/rollout.md). */
  noHealth?: boolean;
  /** Undefined: no fleet is configured. */
  fleet?: FleetSettings;
  fleetName?: string;
}

/** What a run applies: a state tree, or (`govern resource`) one resource made from the command line. */
export interface RunSource {
  /** The tree's path; empty for no tree. */
  target: string;
  /** The report's `state`, when not the target (the resource's RREF). */
  state?: string;
  plan(inputs: PlanSettings, clock: PhaseClock): Promise<PlannedTree>;
  /**
   * An ad hoc resource: its run is not the tree's, so it is neither recorded (last-run.json, the
   * metrics, the fleet) nor compared with what the tree manages (docs/runners.md "govern resource").
   */
  adHoc?: boolean;
}

/**
 * One run at a time: anything that changes the host waits for the run under way. A signal before
 * the lock is held stops the run there, with a line that says so: nothing was applied, and such a
 * run is not recorded (the record is of runs that began). Once the lock is held, `work` takes over
 * the interruption (it records what it applied); it must register its handler before it first waits.
 */
export async function underRunLock(o: { quiet: boolean; verbose: number; lockTimeout: number }, work: () => Promise<number>): Promise<number> {
  if (o.quiet && o.verbose > 0) throw new UserError('-q and -v say opposite things: give one');
  let waitingFor: string | undefined;
  const unregister = onInterrupt(async (signal) => {
    const when = waitingFor !== undefined ? `while ${waitingFor}` : 'before the run had begun';
    warn(`interrupted by ${signal} ${when}: nothing was applied, and the record of the last run is unchanged`);
  });
  let lock;
  try {
    lock = await acquireRunLock({
      timeoutMs: o.lockTimeout,
      startedAt: startedAt(),
      onWait: (message) => ((waitingFor = message), note(message)),
      abandoned: () => interruptedBy() !== undefined,
    });
  } catch (e) {
    if (interruptedBy() !== undefined) return 1; // the flock was stopped by the signal, said above
    throw e;
  } finally {
    unregister();
  }
  try {
    return await work();
  } finally {
    lock.release();
  }
}

/**
 * A run, and for a pulled tree what it leaves for the tree's commit (revert.ts): a failed run in a
 * tree marked by `govern pull --revert-on-failure` returns it to the last good commit, run at once,
 * in the same invocation; that exits as a failure (the commit pulled failed) whatever the return's run did.
 */
export async function lockedRun(o: RunSettings, source: RunSource): Promise<number> {
  // With --json, stdout is one document: the report of the run that ends the invocation, printed
  // here once it is known whether a return follows (then the return's run, carrying the failed one).
  const done: Done = { holdJson: true };
  const printHeld = async (d: Done) => void (o.json && d.report ? await out(reportJson(d.report)) : undefined);
  const code = await runOnce(o, source, done);
  const tree = o.noop ? undefined : done.tree;
  if (tree === undefined || done.report === undefined || interruptedBy() !== undefined) return (await printHeld(done), code);
  let made;
  try {
    made = await afterPulledRun(path.resolve(source.target), tree, done.report, o.varDir);
  } catch (e) {
    await printHeld(done);
    printError(e);
    return 1;
  }
  if (made === undefined) return (await printHeld(done), code);
  warn(`${source.target}: reverted from ${made.from} (${made.reason}) to ${made.to}, the last good commit: running it`);
  const failedRun = { summary: done.report.summary, ...(done.report.health ? { health: done.report.health } : {}) };
  const again: Done = { holdJson: true, failedRun };
  const returnStart = Date.now();
  const second = await runOnce(o, source, again);
  for (const line of restoreReplaced(o.varDir, done.report, returnStart, again.report)) warn(line);
  for (const p of putBacks(done.report, again.report)) {
    warn(`putting ${p.runner}:${p.name} back ${p.what} before ${made.from}`);
    // With --json its lines would break stdout's one document: its report is held, a failure said on stderr.
    const put: Done = { holdJson: true };
    await runOnce({ ...o, noHealth: true }, putBackSource(p), put).catch(printError);
    for (const r of o.json ? (put.report?.resources ?? []) : []) if (r.status === 'failed') warn(`${r.ref} not put back: ${r.message}`);
  }
  if (again.report && interruptedBy() === undefined) {
    try {
      if (again.tree) await afterPulledRun(path.resolve(source.target), again.tree, again.report, o.varDir);
    } catch (e) {
      printError(e);
    }
  }
  await printHeld(again);
  return o.detailedExitcodes ? second | 4 : 1;
}

/**
 * What one run leaves for lockedRun: its report (none when interrupted) and the pulled tree it read;
 * `holdJson`: its --json report is left to the caller; `failedRun`: the run is the return from it.
 */
type Done = { report?: RunReport; tree?: PulledTree; holdJson?: boolean; failedRun?: RevertReport['failed_run'] };

async function runOnce(o: RunSettings, source: RunSource, done: Done): Promise<number> {
  const { target } = source;
  const clock = new PhaseClock();
  // A tree from govern pull is resolved once, under the run lock (no pull prunes it meanwhile), so
  // the whole run reads one commit even if a pull switches the tree while it runs.
  const pulled = source.adHoc ? undefined : pulledTree(target);
  done.tree = pulled;
  const inputs = o.planSettings(pulled?.path ?? target);
  const carried = pulled && !o.noop ? carriedReturn(pulled) : undefined;
  const meta = async (): Promise<RunMeta> => ({
    // The tree by its absolute path: govern status and the fleet read it from anywhere.
    ...(await runMeta(source.state ?? path.resolve(target), o.noop, inputs.facts)),
    ...(pulled ? { commit: pulled.commit } : {}),
    ...(carried ? { reverted: done.failedRun ? { ...carried, failed_run: done.failedRun } : carried } : {}),
  });
  let report: RunReport;
  let code: number;
  const applied: Applied = { resources: [], notifications: [], excluded: 0 };
  // Opened before planning: the runners the last run of this tree used start while it is planned.
  const session = new RunSession({
    governPath: governExecutable(),
    factsPath: inputs.paths.facts,
    noop: o.noop,
    timeoutMs: o.runnerTimeout,
    // The runners' backups (backup = true) go under the run's var dir.
    baseEnv: { ...process.env, ...(o.varDir ? { GOVERN_VAR_DIR: o.varDir } : {}), ...(pulled && !o.noop ? backUpAll(pulled) : {}) },
    jobs: o.jobs,
    runnerMode: o.runnerMode,
  });
  // Interrupted, the run records what it applied so far; govern exits once that is done.
  const unregister = onInterrupt(async (signal) => {
    const underway = (await session.stillUnderway(KILL_GRACE_MS)).map((call) => call.resource);
    const stopped = interruptedReport(await meta(), applied, underway, signal, clock.timings(), sinceStart());
    // Recorded first: a summary to a slow reader (the journal of a loaded machine) must not hold
    // the record back until the SIGKILL that follows a SIGTERM.
    record(o, stopped, source);
    if (o.json) await out(reportJson(stopped));
    else await out(`${summaryLine(stopped)}\n`);
    // The fleet sees the failure too, within --fleet-timeout: the run alone, not its facts.
    await publish(o, stopped, undefined, source);
  });
  try {
    if (o.runnerMode === 'persistent' && !source.adHoc) session.warm(forecastRunners(inputs.cache, inputs.target));
    const result = await runTree(o, inputs, clock, meta, session, applied, source);
    if (result === undefined) return 1; // recorded as interrupted; govern exits 130 or 143
    ({ report, code } = result);
    if (o.json && !done.holdJson) await out(reportJson(report));
  } catch (e) {
    if (interruptedBy() !== undefined) return 1; // recorded as interrupted; govern exits 130 or 143
    if (o.noop && !o.json) {
      unregister();
      throw e;
    }
    report = errorReport(await meta(), e, clock.timings(), sinceStart());
    done.report = report;
    if (o.json && !done.holdJson) await out(reportJson(report));
    printError(e);
    record(o, report, source);
    unregister();
    await publish(o, report, inputs, source);
    return 1;
  } finally {
    // The handler stays until the run is recorded: a signal while the runners close (longer on a
    // busy machine) found none, and the run was never recorded.
    await session.close();
  }
  if (interruptedBy() !== undefined) return 1; // recorded as interrupted; govern exits 130 or 143
  done.report = report;
  const recorded = record(o, report, source);
  unregister();
  await publish(o, report, inputs, source);
  return recorded ? code : 1;
}

/** After the record, when a fleet is configured: never changes the run's exit status (src/fleet/after-run.ts). */
async function publish(o: RunSettings, report: RunReport, inputs: PlanSettings | undefined, source: RunSource): Promise<void> {
  const settings = o.fleet;
  if (o.noop || source.adHoc || settings === undefined) return;
  const { publishAfterRun } = await import('../fleet/after-run.js');
  await publishAfterRun({ settings, name: o.fleetName, report, facts: inputs?.facts, varDir: o.varDir, metricsFile: o.metricsFile }, warn);
}

/** Keeps the report of a run that was not --noop; false (with the reason on stderr) when that failed. */
function record(o: RunSettings, report: RunReport, source: RunSource): boolean {
  if (o.noop || source.adHoc) return true;
  try {
    recordRun(report, { varDir: o.varDir, metricsFile: o.metricsFile });
    return true;
  } catch (e) {
    printError(e);
    return false;
  }
}

async function runTree(
  o: RunSettings,
  inputs: PlanSettings,
  clock: PhaseClock,
  meta: () => Promise<RunMeta>,
  session: RunSession,
  applied: Applied,
  source: RunSource,
): Promise<{ report: RunReport; code: number } | undefined> {
  const { plan, runners, selected, notes, health } = await source.plan(inputs, clock);
  if (o.verbose > 0) for (const message of notes ?? []) note(message);
  const managed = source.adHoc ? { dropped: [], save: () => {} } : trackManaged(o.varDir, source.target, plan.resources, o.forget);
  const persistent = [...runners.values()].filter((r) => r.description?.persistent === true).map((r) => r.executable);
  if (!source.adHoc) rememberRunners(inputs.cache, inputs.target, persistent);
  const view: TextView = {
    verbosity: o.quiet ? -1 : Math.min(o.verbose, 2),
    diffs: !o.noDiff,
    color: useColour(o.color, process.env, process.stdout),
    noop: o.noop,
  };
  const write = priorityWriter(process.stdout, 1, process.env);
  const printer: Partial<ReturnType<typeof textPrinter>> = o.json ? {} : textPrinter(plan, view, write);
  // What is applied is kept as it is reported, for the record of a run that is interrupted.
  applied.excluded = selected ? plan.resources.length - selected.size : 0;
  const listener = {
    onStart: printer.onStart,
    onResource: (r: ResourceReport) => (applied.resources.push(r), printer.onResource?.(r)),
    onNotification: (n: NotificationReport) => (applied.notifications.push(n), printer.onNotification?.(n)),
  };
  const entries = await session.execute(plan, { runners, selected, clock, ...listener });
  await session.close();
  // Interrupted, the last calls may still have ended (failed, killed): the run's report is the
  // interruption's, printed and recorded once, not this one as well.
  if (interruptedBy() !== undefined) return undefined;
  const excluded = selected ? plan.resources.length - selected.size : 0;
  // The host's name is a fact: evaluated after the runners are done, never alongside them.
  const report = runReport(await meta(), { ...entries, excluded }, clock.timings(), sinceStart());
  if (managed.dropped.length > 0) report.no_longer_managed = managed.dropped;
  let saved = true;
  if (!o.noop) {
    try {
      managed.save();
    } catch (e) {
      printError(e);
      saved = false;
    }
  }
  // After a real run, also a failed one: its record says whether what it left is healthy.
  if (!o.noop && !o.noHealth && health.length > 0) {
    const checked = await runHealth(health);
    report.health = checked.report;
    report.summary.duration_ms = sinceStart();
    if (!o.json) for (const line of healthLines(checked.results, view.verbosity)) write(`${line}\n`, line.startsWith('failed') ? 'err' : 'info');
  }
  if (!o.json) {
    for (const ref of managed.dropped) write(`no longer managed: ${ref}\n`, 'warning');
    write(`${summaryLine(report)}\n`, report.health?.failed ? 'warning' : summaryPriority(report.summary));
  }
  return { report, code: saved ? exitCode(report.summary, o.detailedExitcodes, report.health) : 1 };
}
