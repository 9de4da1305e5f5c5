// What every built-in runner shares: reading the request (argv and environment), printing the
// result lines, and turning errors into a message and a non-zero exit. A runner itself is a
// function from a request to a result; it never touches process.argv, process.env or stdout.
import readline from 'node:readline';
import { PERSISTENT_ENV, type PersistentRequest, type PersistentResponse } from '../shared/persistent.js';
import { decodeArgs, formatResult, oneLine, Params, ProtocolError, type RunnerResult } from '../shared/protocol.js';
import { KILL_GRACE_MS, killAllChildren } from '../shared/process.js';
import { ValidationError } from '../shared/validate.js';

export interface RunnerRequest {
  name: string;
  params: Params;
  /** GOVERN_NOOP=1: report what would change, change nothing. */
  noop: boolean;
  /** GOVERN_SIGNAL: notification mode. */
  signal?: string;
  /** GOVERN_STATE_DIR: the directory of the state file that declared the resource. */
  stateDir?: string;
  /** The environment the runner was given, for the commands it runs. */
  env: NodeJS.ProcessEnv;
  /** A log line: kept in govern's report, shown on failure or with --verbose. */
  log(line: string): void;
}

export type Runner = (request: RunnerRequest) => Promise<RunnerResult>;

/** A failure the user can act on: printed as it is, without a stack trace. */
export class RunnerError extends Error {}

export function isUserError(e: unknown): e is Error {
  return e instanceof RunnerError || e instanceof ValidationError || e instanceof ProtocolError;
}

/** Builds a request from a one-shot invocation: `RUNNER NAME key=value...` plus GOVERN_* variables. */
export function requestFromProcess(argv: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): RunnerRequest {
  const { name, params } = decodeArgs(argv);
  return {
    name,
    params,
    noop: env.GOVERN_NOOP === '1' || env.GOVERN_NOOP === 'true',
    signal: env.GOVERN_SIGNAL ? env.GOVERN_SIGNAL : undefined,
    stateDir: env.GOVERN_STATE_DIR ? env.GOVERN_STATE_DIR : undefined,
    env,
    log,
  };
}

/**
 * The entry point of a runner executable: one resource from argv (one-shot protocol), or, when
 * govern starts it with GOVERN_PERSISTENT=1, one resource per JSON line on stdin.
 */
export function runnerMain(runner: Runner): void {
  // govern's timeout sends SIGTERM: take the commands this runner started (each in its own
  // process group) down too, then go.
  process.once('SIGTERM', () => {
    // Ask first (a package manager killed mid-transaction leaves dpkg "interrupted"), then insist,
    // before govern's own SIGKILL arrives (KILL_GRACE_MS).
    killAllChildren('SIGTERM');
    setTimeout(() => {
      killAllChildren('SIGKILL');
      // A request still unanswered gets its answer now, so that its log is not lost.
      if (inFlight && !inFlight.answered) {
        inFlight.answered = true;
        process.stdout.write(JSON.stringify({ ok: false, changed: false, message: 'stopped by SIGTERM', log: inFlight.log }) + '\n', () => process.exit(143));
      } else process.exit(143);
    }, KILL_GRACE_MS / 2).unref();
  });
  if (process.env[PERSISTENT_ENV] === '1') serveRequests(runner);
  else runOnce(runner);
}

/** The request a persistent runner is working on. */
let inFlight: { log: string[]; answered: boolean } | undefined;

function runOnce(runner: Runner): void {
  const log = (line: string) => process.stderr.write(line.endsWith('\n') ? line : line + '\n');
  let request: RunnerRequest;
  try {
    request = requestFromProcess(process.argv.slice(2), process.env, log);
  } catch (e) {
    fail(e);
    return;
  }
  runner(request).then(
    (result) => {
      process.stdout.write(formatResult(result));
      process.exitCode = 0;
    },
    (e) => fail(e),
  );
}

function serveRequests(runner: Runner): void {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base[PERSISTENT_ENV];
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  // One request at a time, in order: the next line waits for the previous answer.
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue
      .then(() => {
        inFlight = { log: [], answered: false };
        return answer(runner, base, line, inFlight.log);
      })
      .then((response) => {
        if (inFlight?.answered) return;
        inFlight!.answered = true;
        process.stdout.write(JSON.stringify(response) + '\n');
      });
  });
}

async function answer(runner: Runner, base: NodeJS.ProcessEnv, line: string, log: string[]): Promise<PersistentResponse> {
  const logLine = (text: string) => log.push(...text.replace(/\n$/, '').split('\n'));
  try {
    const request = JSON.parse(line) as PersistentRequest;
    const env = { ...base };
    for (const key of ['GOVERN_NOOP', 'GOVERN_SIGNAL', 'GOVERN_STATE_DIR']) delete env[key];
    Object.assign(env, request.env);
    const result = await runner(requestFromProcess(request.argv, env, logLine));
    return { ok: true, changed: result.changed, message: result.message !== undefined ? oneLine(result.message) : undefined, log };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    logLine(`error: ${isUserError(e) ? message : (e as Error)?.stack ?? message}`);
    return { ok: false, changed: false, message: oneLine(message), log };
  }
}

function fail(e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  process.stdout.write(`message=${oneLine(message)}\n`);
  process.stderr.write(`error: ${isUserError(e) ? message : (e as Error)?.stack ?? message}\n`);
  process.exitCode = 1;
}

/** The standard reply to a signal a runner does not understand. */
export function unknownSignal(signal: string, known: string[]): RunnerError {
  return new RunnerError(`unexpected signal: ${signal} (this runner understands ${known.join(', ')})`);
}
