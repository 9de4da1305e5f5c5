// How the runners' providers run commands, in one place: a command runner passed in (tests may
// record instead), every command shown in the log as a user could paste it, and a failure worded
// by the one formatter. Never through a shell.
import { LOG_KEEP_BYTES } from './bounded-output.js';
import { commandFailure } from './command-failure.js';
import { UserError } from './errors.js';
import { runCommand, type RunOptions, type RunResult } from './process.js';
import { displayCommand } from './shell-display.js';

export type CommandRunner = (command: string, args: string[], options?: RunOptions) => Promise<RunResult>;

/** What a provider works with: the request's environment and log, and the command runner. */
export interface ProviderContext {
  /** The base environment of every command. */
  env: NodeJS.ProcessEnv;
  log(line: string): void;
  run: CommandRunner;
}

export function providerContext(env: NodeJS.ProcessEnv, log: (line: string) => void, run: CommandRunner = runCommand): ProviderContext {
  return { env, log, run };
}

export interface CommandOptions {
  /** Variables added to the context's environment. */
  env?: Record<string, string>;
  /** The command's whole environment instead of the context's (an init script run as service(8) runs it). */
  wholeEnv?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  /** How the command is shown in the log and in messages, when not as it runs (a lock prefix left out). */
  shown?: string[];
  /** For a failure: advice from the result ("the init script has no reload"). */
  hint?(result: RunResult): string | undefined;
  /** Written to the command's stdin (a secret: never on a command line, never logged). */
  input?: string;
}

function options(context: ProviderContext, extra: CommandOptions, keep?: number): RunOptions {
  const env = extra.wholeEnv ?? (extra.env ? { ...context.env, ...extra.env } : context.env);
  return { env, timeoutMs: extra.timeoutMs, ...(extra.cwd !== undefined ? { cwd: extra.cwd } : {}), ...(extra.input !== undefined ? { input: extra.input } : {}), ...(keep !== undefined ? { headAndTail: keep } : {}) };
}

/**
 * A command whose exit status and output are the answer (`systemctl is-active`, `dpkg-query`): the
 * result as it is, whatever the exit status; a command that could not run to its end is an error.
 */
export async function query(context: ProviderContext, argv: string[], extra: CommandOptions = {}): Promise<RunResult> {
  const [command, ...args] = argv;
  const result = await context.run(command, args, options(context, extra));
  if (result.spawnError || result.timedOut || result.overflowed || result.signal) {
    throw new UserError(commandFailure(displayCommand(extra.shown ?? argv), result, { timeoutMs: extra.timeoutMs }));
  }
  return result;
}

/** A command that changes something: logged with its output; anything but exit 0 is an error. */
export async function act(context: ProviderContext, argv: string[], extra: CommandOptions = {}): Promise<RunResult> {
  const [command, ...args] = argv;
  const shown = displayCommand(extra.shown ?? argv);
  context.log(`$ ${shown}`);
  const result = await context.run(command, args, options(context, extra, LOG_KEEP_BYTES)); // output only logged
  for (const line of `${result.stdout}${result.stderr}`.split('\n')) if (line.trim() !== '') context.log(line);
  if (result.code === 0 && !result.spawnError) return result;
  throw new UserError(commandFailure(shown, result, { timeoutMs: extra.timeoutMs, hint: extra.hint?.(result) }));
}
