// The exec runner: validate every command, look at the `creates` file, let the decision ask for
// the guards it needs, then run the command (or, in noop, say it would) and check its exit code.
import fs from 'node:fs';
import { describeFailure, lastLines, type RunResult } from '../../shared/process.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { displayCommand } from '../../shared/shell-display.js';
import { RunnerError, type Runner, type RunnerRequest } from '../kit.js';
import { decide, type ExecStatus, type Guard } from './decide.js';
import { parseProperties, type ExecProperties } from './properties.js';
import { providerFor, type ExecProvider, type RunSpec } from './provider.js';

/** How much of the command's output a failure message quotes. */
const TAIL_LINES = 5;
const TAIL_LINE_CHARS = 200;

export const runExec: Runner = async (request) => {
  const desired = parseProperties(request.name, request.params);
  const provider = providerFor(desired.provider);
  // Split and check every command before any of them runs.
  const command = provider.argv(desired.command);
  const guards: Record<Guard, string[][]> = {
    unless: desired.unless.map((c) => provider.argv(c)),
    onlyif: desired.onlyif.map((c) => provider.argv(c)),
  };
  const spec: RunSpec = { env: commandEnvironment(request.env, desired), cwd: desired.cwd, timeoutMs: desired.timeoutMs };
  const status: ExecStatus = {
    signal: request.signal,
    createsExists: desired.creates !== undefined && fs.existsSync(desired.creates),
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
      request.log(`would run: ${displayCommand(command)}`);
      return { changed: true, message: decision.noopMessage };
    }
    return execute(request, provider, spec, desired, command);
  }
};

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

/** Runs one guard; its exit code, or a RunnerError if it could not give one. */
async function runGuard(request: RunnerRequest, provider: ExecProvider, spec: RunSpec, guard: Guard, text: string, argv: string[]): Promise<number> {
  checkCwd(spec.cwd);
  const result = await provider.run(argv, spec);
  const label = `${guard} command ${JSON.stringify(text)}`;
  if (result.code === null || result.timedOut || result.overflowed) {
    throw new RunnerError(withTail(`${label} ${describeFailure(result, spec.timeoutMs)}`, result));
  }
  request.log(`${label} exited ${result.code}`);
  return result.code;
}

async function execute(request: RunnerRequest, provider: ExecProvider, spec: RunSpec, desired: ExecProperties, argv: string[]): Promise<RunnerResult> {
  checkCwd(spec.cwd);
  request.log(`running: ${displayCommand(argv)}`);
  const result = await provider.run(argv, spec);
  const succeeded = result.code !== null && !result.timedOut && !result.overflowed && desired.returns.includes(result.code);
  if (desired.logoutput === 'true' || (desired.logoutput === 'on_failure' && !succeeded)) logOutput(request, result);
  if (!succeeded) {
    const why = result.code !== null && !result.timedOut && !result.overflowed
      ? `exit ${result.code} (returns ${desired.returns.join(', ')})`
      : describeFailure(result, spec.timeoutMs);
    throw new RunnerError(withTail(`${JSON.stringify(desired.command)} failed: ${why}`, result));
  }
  if (desired.creates !== undefined && !fs.existsSync(desired.creates)) {
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
    throw new RunnerError(`cwd ${cwd} does not exist`);
  }
  if (!isDir) throw new RunnerError(`cwd ${cwd} is not a directory`);
}

/**
 * The command's output as log lines. Each is prefixed with its stream, so output can never pass
 * for a result line: the kit writes log lines to stderr and result lines alone to stdout.
 */
function logOutput(request: RunnerRequest, result: RunResult): void {
  for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]] as const) {
    if (text === '') continue;
    for (const line of text.replace(/\n$/, '').split('\n')) request.log(`${stream}: ${line}`);
  }
}

/** The message, and the last lines of the output (stderr when there is any, else stdout). */
function withTail(message: string, result: RunResult): string {
  const output = result.stderr.trim() !== '' ? result.stderr : result.stdout;
  if (output.trim() === '') return message;
  const tail = lastLines(output, TAIL_LINES).split('\n').map(shorten).filter((line) => line !== '');
  return `${message}; last output: ${tail.join(' | ')}`;
}

function shorten(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > TAIL_LINE_CHARS ? trimmed.slice(0, TAIL_LINE_CHARS) + '...' : trimmed;
}
