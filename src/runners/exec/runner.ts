// The exec runner: validate every command, look at the `creates` file, let the decision ask for
// the guards it needs, then run the command (or, in noop, say it would) and check its exit code.
import fs from 'node:fs';
import { commandFailure } from '../../shared/command-failure.js';
import { providerContext } from '../../shared/command-runner.js';
import { existsSafely } from '../../shared/chase.js';
import { UserError } from '../../shared/errors.js';
import type { RunResult } from '../../shared/process.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { displayCommand } from '../../shared/shell-display.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { decide, type ExecStatus, type Guard } from './decide.js';
import { description } from './description.js';
import { execProperties, type ExecProperties } from './properties.js';
import type { ExecProvider, RunSpec } from './provider.js';
import { execProvider } from './providers.js';
import { commandIdentity } from './identity.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** How many of the command's last output lines a failure message quotes. */
const TAIL_LINES = 5;

export const execRunner: RunnerDefinition<typeof description> = { name: 'exec', description, run: runExec };

async function runExec(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const desired = execProperties(request);
  const context = providerContext(request.env, request.log);
  const provider = await execProvider(desired, context);
  // Split and check every command before any of them runs.
  const command = provider.argv(desired.command);
  const guards: Record<Guard, string[][]> = {
    unless: desired.unless.map((c) => provider.argv(c)),
    onlyif: desired.onlyif.map((c) => provider.argv(c)),
  };
  const identity = await commandIdentity(desired, context, request);
  const spec: RunSpec = { env: { ...commandEnvironment(request.env, desired), ...identity.env }, cwd: desired.cwd, timeoutMs: desired.timeoutMs, prefix: identity.prefix };
  if (identity.note && guards.unless.length + guards.onlyif.length > 0 && request.signal === undefined) {
    // Noop, and the user or group the checks would run as does not exist yet: they cannot run.
    return { changed: true, message: `Would have run the unless/onlyif checks, and the command if they allow it (${identity.note})` };
  }
  const status: ExecStatus = {
    signal: request.signal,
    createsExists: desired.creates !== undefined && existsSafely(desired.creates),
    unlessExits: [],
    onlyifExits: [],
  };
  for (;;) {
    const decision = decide(desired, status);
    if (decision.action === 'skip') return { changed: false, message: decision.message };
    if (decision.action === 'check') {
      const exit = await runGuard(request, provider, spec, decision.guard, desired[decision.guard][decision.index], guards[decision.guard][decision.index]);
      (decision.guard === 'unless' ? status.unlessExits : status.onlyifExits).push(exit);
      continue;
    }
    if (request.noop) {
      request.log(`would run: ${displayCommand([...identity.prefix, ...command])}`);
      return { changed: true, message: decision.noopMessage + (identity.note ? ` (${identity.note})` : '') };
    }
    return execute(request, provider, spec, desired, command);
  }
}

/**
 * The request's environment, less govern's mode variables (a command that is itself govern-aware
 * must not think it is in noop or notification mode), plus `environment` and `path`.
 */
export function commandEnvironment(base: NodeJS.ProcessEnv, desired: ExecProperties): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  delete env.GOVERN_NOOP;
  delete env.GOVERN_SIGNAL;
  for (const [key, value] of desired.environment) env[key] = value;
  if (desired.path) env.PATH = desired.path.join(':');
  return env;
}

/** Runs one guard; its exit code, or a UserError if it could not give one. */
async function runGuard(request: RunnerRequest<unknown>, provider: ExecProvider, spec: RunSpec, guard: Guard, text: string, argv: string[]): Promise<number> {
  checkCwd(spec.cwd);
  const result = await provider.run(argv, spec);
  const label = `${guard} command ${JSON.stringify(text)}`;
  if (result.code === null || result.timedOut || result.overflowed) {
    throw new UserError(commandFailure(label, result, { timeoutMs: spec.timeoutMs, lines: TAIL_LINES }));
  }
  request.log(`${label} exited ${result.code}`);
  return result.code;
}

async function execute(request: RunnerRequest<unknown>, provider: ExecProvider, spec: RunSpec, desired: ExecProperties, argv: string[]): Promise<RunnerResult> {
  let result: RunResult;
  let succeeded: boolean;
  for (let attempt = 1; ; attempt++) {
    checkCwd(spec.cwd);
    request.log(`$ ${displayCommand([...(spec.prefix ?? []), ...argv])}${desired.tries > 1 ? `  (try ${attempt} of ${desired.tries})` : ''}`);
    result = await provider.run(argv, spec);
    succeeded = result.code !== null && !result.timedOut && !result.overflowed && desired.returns.includes(result.code);
    if (succeeded || attempt >= desired.tries) break;
    request.log(`try ${attempt} failed (${result.code !== null ? `exit ${result.code}` : 'killed'}); next in ${desired.trySleepMs / 1000}s`);
    if (desired.trySleepMs > 0) await sleep(desired.trySleepMs);
  }
  if (desired.logoutput === 'true' || (desired.logoutput === 'on_failure' && !succeeded)) logOutput(request, result);
  if (!succeeded) {
    const exited = result.code !== null && !result.timedOut && !result.overflowed;
    const why = exited ? `exit ${result.code}, expected ${desired.returns.join(' or ')}` : undefined;
    throw new UserError(commandFailure(JSON.stringify(desired.command), result, { why, timeoutMs: spec.timeoutMs, lines: TAIL_LINES }));
  }
  if (desired.creates !== undefined && !existsSafely(desired.creates)) {
    request.log(`warning: ${desired.creates} (creates) still does not exist, so the command will run again next time`);
  }
  return { changed: true, message: `executed (exit ${result.code})` };
}

function checkCwd(cwd: string | undefined): void {
  if (cwd === undefined) return;
  let isDir: boolean;
  try {
    isDir = fs.statSync(cwd).isDirectory();
  } catch {
    throw new UserError(`cwd ${cwd} does not exist`);
  }
  if (!isDir) throw new UserError(`cwd ${cwd} is not a directory`);
}

/**
 * The command's output as log lines. Each is prefixed with its stream, so output can never pass
 * for a result line: the kit writes log lines to stderr and result lines alone to stdout.
 */
function logOutput(request: RunnerRequest<unknown>, result: RunResult): void {
  for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]] as const) {
    if (text === '') continue;
    for (const line of text.replace(/\n$/, '').split('\n')) request.log(`${stream}: ${line}`);
  }
}
