// Invokes a runner for one resource, exactly per the runner protocol (docs/runners.md): argv without a
// shell, the GOVERN_* environment, result lines from stdout, everything else kept as log.
import { LOG_KEEP_BYTES } from '../shared/bounded-output.js';
import { GOVERN_PID_ENV, parseResult } from '../shared/protocol.js';
import { describeFailure, lastLines, runCommand, type RunResult } from '../shared/process.js';
import { callArgv, callEnv, type Call, type CallResult } from '../state/runner-call.js';
import { runnerBaseEnv } from '../describe/runner-env.js';

export type RunnerMode = 'persistent' | 'oneshot';

export interface RunContext {
  /** GOVERN */
  governPath: string;
  factsPath: string[];
  noop: boolean;
  timeoutMs: number;
  /** GOVERN_RUN_DIR: private to this run, removed when it ends. */
  runDir: string;
  baseEnv: NodeJS.ProcessEnv;
}

/** The environment every runner process gets: the caller's, plus the variables of the run. */
export function runnerProcessEnv(ctx: RunContext): NodeJS.ProcessEnv {
  return { ...runnerBaseEnv(ctx.baseEnv), GOVERN: ctx.governPath, GOVERN_FACTS_PATH: ctx.factsPath.join(':'), GOVERN_RUN_DIR: ctx.runDir, [GOVERN_PID_ENV]: String(process.pid) };
}

/** One call, one process: the one-shot protocol. */
export async function invokeRunner(call: Call, ctx: RunContext): Promise<CallResult> {
  const env = { ...runnerProcessEnv(ctx), ...callEnv(call, ctx.noop) };
  // Only the head and tail of a runner's output are kept: its result lines come last, by convention.
  const result = await runCommand(call.executable, callArgv(call), { env, timeoutMs: ctx.timeoutMs, headAndTail: LOG_KEEP_BYTES });
  const parsed = parseResult(result.stdout);
  const stderr = result.stderr.split('\n').filter((l) => l !== '');
  const log = [...parsed.log, ...stderr];
  const diff = parsed.diff !== undefined ? { diff: parsed.diff } : {};
  if (result.code === 0) {
    return { ok: true, changed: parsed.changed, message: parsed.message ?? '', ...diff, log, durationMs: result.durationMs };
  }
  return { ok: false, changed: false, message: failureMessage(parsed.message ?? lastLines(stderr.join('\n'), 1), result, ctx.timeoutMs), log, durationMs: result.durationMs };
}

/**
 * A failed call's message: the runner's own, as it is when it simply failed (exit 1, what a
 * persistent runner's `ok: false` is); what else happened is added (`(exit 2)`, `(killed by SIGKILL)`).
 */
function failureMessage(detail: string, result: RunResult, timeoutMs: number): string {
  const plain = result.code === 1 && !result.timedOut && !result.overflowed;
  if (detail && plain) return detail;
  const why = describeFailure(result, timeoutMs);
  return detail ? `${detail} (${why})` : `runner failed (${why})`;
}
