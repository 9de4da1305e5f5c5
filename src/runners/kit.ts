// What every built-in runner shares: reading the request (argv and environment), printing the
// result lines, and turning errors into a message and a non-zero exit. A runner itself is a
// function from a request to a result; it never touches process.argv, process.env or stdout.
import { decodeArgs, formatResult, oneLine, Params, ProtocolError, type RunnerResult } from '../shared/protocol.js';
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

/** The entry point of a runner executable (one-shot protocol). */
export function runnerMain(runner: Runner): void {
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
