// Invokes a runner for one resource, exactly per the runner protocol (DESIGN.md): argv without a
// shell, the GOVERN_* environment, result lines from stdout, everything else kept as log.
import { LOG_KEEP_BYTES } from '../shared/bounded-output.js';
import { encodeArgs, parseResult, type CallVariable } from '../shared/protocol.js';
import { describeFailure, lastLines, runCommand, type RunResult } from '../shared/process.js';
import { hiddenKey, SENSITIVE } from '../shared/sensitive.js';
import { displayCommand } from '../shared/shell-display.js';
import type { Resource } from '../state/resource.js';
import { managedChildrenValue } from './managed-children.js';
import { runnerBaseEnv } from './runner-env.js';

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

export interface Call {
  resource: Resource;
  executable: string;
  /** Notification mode. */
  signal?: string;
  /** Noop mode: the RREFs of the resources this one comes after that would change (GOVERN_NOOP_PENDING). */
  pending?: string[];
  /**
   * Called in noop mode in a real run: it comes after resources that `noop = true` kept from
   * changing (their RREFs; `pending` lists them and the rest of what would change upstream).
   */
  heldAfter?: string[];
  /** A resource with `purge = true`: the names of its directory's entries the tree manages (GOVERN_MANAGED_CHILDREN). */
  managed?: string[];
}

export interface CallResult {
  ok: boolean;
  changed: boolean;
  message: string;
  log: string[];
  /** A unified diff of what changed (or would change), lines joined by "\n", when the runner gave one. */
  diff?: string;
  durationMs: number;
}

export function callArgv(call: Call): string[] {
  return [call.resource.name, ...encodeArgs(call.resource.attrs)];
}

/** The environment every runner process gets: the caller's, plus the variables of the run. */
export function runnerProcessEnv(ctx: RunContext): NodeJS.ProcessEnv {
  return { ...runnerBaseEnv(ctx.baseEnv), GOVERN: ctx.governPath, GOVERN_FACTS_PATH: ctx.factsPath.join(':'), GOVERN_RUN_DIR: ctx.runDir };
}

/** The variables that belong to one call; a resource with `noop = true`, and what comes after its changes, are called in noop mode in every run. */
export function callEnv(call: Call, runNoop: boolean): Partial<Record<CallVariable, string>> {
  const env: Partial<Record<CallVariable, string>> = { GOVERN_STATE_DIR: call.resource.stateDir };
  const noop = runNoop || call.resource.noop === true || (call.heldAfter?.length ?? 0) > 0;
  if (noop) env.GOVERN_NOOP = '1';
  if (noop && call.pending?.length) env.GOVERN_NOOP_PENDING = call.pending.join('\n');
  if (call.signal !== undefined) env.GOVERN_SIGNAL = call.signal;
  if (call.managed !== undefined) env.GOVERN_MANAGED_CHILDREN = managedChildrenValue(call.managed, call.resource.name);
  return env;
}

/** The invocation as a user could paste it, with the variables that belong to the call; hidden values as `key=<sensitive>`. */
export function displayCall(call: Call, noop: boolean): string {
  const { resource } = call;
  const shown = Object.fromEntries(Object.entries(resource.attrs).map(([key, value]) => [key, hiddenKey(resource, key) ? SENSITIVE : value]));
  return displayCommand([call.executable, resource.name, ...encodeArgs(shown)], callEnv(call, noop));
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
