// Running package-manager commands: never through a shell, each one under govern's cross-process
// package lock, and with failures turned into messages a user can act on.
//
// The seed holds an in-process lock around every package command. Each govern resource is its own
// runner process, so the lock is a file lock instead, taken with flock(1) from util-linux as a
// prefix of the command: `flock -w 600 -E 75 /run/govern/pkg.lock apt-get ...`. The lock is
// released when the command exits, whatever happens to the runner.
import fs from 'node:fs';
import path from 'node:path';
import { ensureLockDir, LOCK_DIR } from '../../shared/lock-dir.js';
import { describeFailure, lastLines, runCommand, type RunResult } from '../../shared/process.js';
import { displayCommand } from '../../shared/shell-display.js';
import { RunnerError } from '../kit.js';

export const LOCK_FILE = `${LOCK_DIR}/pkg.lock`;

/** The lock's directory (shared/lock-dir.ts), checked: a refusal fails the resource. */
export function privateLockDir(dir: string = LOCK_DIR): void {
  try {
    ensureLockDir(dir);
  } catch (e) {
    throw new RunnerError((e as Error).message);
  }
}
/** How long a command waits for govern's package lock, and apt for dpkg's own lock. */
export const LOCK_WAIT_SECONDS = 600;
/** flock's exit status when the wait times out (EX_TEMPFAIL), so it is not taken for the command's. */
const LOCK_TIMEOUT_EXIT = 75;

export interface ToolContext {
  /** The runner's environment, the base of every command's. */
  env: NodeJS.ProcessEnv;
  log(line: string): void;
}

export interface ToolRun {
  /** A query whose output is parsed: run in the C locale, its output not logged (the command line is). */
  query?: boolean;
}

export class PackageTools {
  constructor(
    private readonly context: ToolContext,
    /** Variables every command of this provider gets (apt's non-interactive frontends). */
    private readonly providerEnv: Record<string, string> = {},
  ) {}

  get env(): NodeJS.ProcessEnv {
    return this.context.env;
  }

  log(line: string): void {
    this.context.log(line);
  }

  /** Runs one command under the package lock; returns its result whatever the exit status. */
  async run(argv: string[], options: ToolRun = {}): Promise<RunResult> {
    const env: NodeJS.ProcessEnv = { ...this.context.env, ...this.providerEnv };
    if (options.query) env.LC_ALL = 'C';
    this.context.log(`$ ${displayCommand(argv)}`);
    privateLockDir();
    const result = await runCommand('flock', ['-w', String(LOCK_WAIT_SECONDS), '-E', String(LOCK_TIMEOUT_EXIT), LOCK_FILE, ...argv], { env });
    if (result.spawnError) throw new RunnerError(`cannot run flock (util-linux), which holds the package lock: ${result.spawnError.message}`);
    if (result.code === LOCK_TIMEOUT_EXIT) {
      throw new RunnerError(`gave up after ${LOCK_WAIT_SECONDS}s waiting for the package lock ${LOCK_FILE} (another govern pkg command holds it)`);
    }
    if (!options.query) {
      for (const line of (result.stdout + result.stderr).split('\n')) if (line.trim() !== '') this.context.log(line);
    }
    return result;
  }

  /** Runs a command that must succeed. */
  async runChecked(argv: string[], options: ToolRun = {}): Promise<RunResult> {
    const result = await this.run(argv, options);
    if (result.code !== 0) throw commandFailed(argv, result);
    return result;
  }
}

export function commandFailed(argv: string[], result: RunResult): RunnerError {
  // The package managers put their error on stderr; their progress on stdout.
  const text = result.stderr.trim() !== '' ? result.stderr : result.stdout;
  const output = lastLines(text.split('\n').filter((l) => l.trim() !== '').join('\n'), 3);
  return new RunnerError(`${displayCommand(argv)} failed (${describeFailure(result)})${output ? `: ${output}` : ''}`);
}

/** The executable `command` would run as, from the environment's PATH, or undefined. */
export function findOnPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, command);
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // not here
    }
  }
  return undefined;
}
