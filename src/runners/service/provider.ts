// What a service provider is (one init system's commands) and how its commands run. Each provider
// lives in its own file (provider-TOOL.ts) and runs that tool's commands and nothing else.
import { describeFailure, lastLines, runCommand, type RunOptions, type RunResult } from '../../shared/process.js';
import { displayCommand } from '../../shared/shell-display.js';
import { RunnerError } from '../kit.js';
import type { ServiceAction, ServiceStatus } from './decide.js';
import type { ProviderName } from './properties.js';

/** The seed's ServiceProvider: Status plus one method per action. */
export interface ServiceProvider extends Record<ServiceAction, (service: string) => Promise<void>> {
  readonly name: ProviderName;
  status(service: string): Promise<ServiceStatus>;
}

export type CommandRunner = (command: string, args: string[], options: RunOptions) => Promise<RunResult>;

export interface ProviderContext {
  /** The base environment of every command (the request's). */
  env: NodeJS.ProcessEnv;
  log(line: string): void;
  /** Runs one command; tests may record instead. */
  run: CommandRunner;
  timeoutMs: number;
}

/** A service command that hangs is killed after this long (systemd's own start timeout is 90s). */
export const COMMAND_TIMEOUT_MS = 300_000;

export function contextFor(env: NodeJS.ProcessEnv, log: (line: string) => void, run: CommandRunner = runCommand): ProviderContext {
  return { env: withSbinPath(env), log, run, timeoutMs: COMMAND_TIMEOUT_MS };
}

/** service, update-rc.d and start-stop-daemon live in sbin, which a non-root PATH often lacks. */
export function withSbinPath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dirs = (env.PATH ?? '').split(':').filter((d) => d !== '');
  for (const sbin of ['/usr/local/sbin', '/usr/sbin', '/sbin']) if (!dirs.includes(sbin)) dirs.push(sbin);
  if (!dirs.includes('/usr/bin')) dirs.push('/usr/bin', '/bin');
  return { ...env, PATH: dirs.join(':') };
}

/** Runs a command whose exit status is an answer (is-active, status): the result as it is. */
export async function query(context: ProviderContext, command: string, args: string[]): Promise<RunResult> {
  const result = await context.run(command, args, { env: context.env, timeoutMs: context.timeoutMs });
  if (result.spawnError || result.timedOut || result.overflowed || result.signal) {
    throw new RunnerError(`${displayCommand([command, ...args])} ${describeFailure(result, context.timeoutMs)}`);
  }
  return result;
}

/** Runs a command that changes something: logged, its output kept as log, a failure is an error. */
export async function act(context: ProviderContext, command: string, args: string[], hint?: (r: RunResult) => string | undefined): Promise<void> {
  const shown = displayCommand([command, ...args]);
  context.log(`running: ${shown}`);
  const result = await context.run(command, args, { env: context.env, timeoutMs: context.timeoutMs });
  for (const line of `${result.stdout}${result.stderr}`.split('\n')) if (line.trim() !== '') context.log(line);
  if (result.code === 0 && !result.spawnError) return;
  const output = lastLines(`${result.stderr}${result.stdout}`.trim(), 3).replace(/\n/g, ' | ');
  const why = hint?.(result);
  throw new RunnerError(`${shown} failed (${describeFailure(result, context.timeoutMs)})${output ? `: ${output}` : ''}${why ? `; ${why}` : ''}`);
}
