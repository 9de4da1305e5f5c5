// Running package-manager commands: never through a shell, each one under govern's cross-process
// package lock, and with failures turned into messages a user can act on.
//
// The seed holds an in-process lock around every package command. Each govern resource is its own
// runner process, so the lock is a file lock instead, taken with flock(1) from util-linux as a
// prefix of the command: `flock -w 600 -E 75 /run/govern/pkg.lock apt-get ...`. The lock is
// released when the command exits, whatever happens to the runner.
import { commandFailure } from '../../shared/command-failure.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { ensureLockDir, lockDir } from '../../shared/lock-dir.js';
import type { RunResult } from '../../shared/process.js';
import { displayCommand } from '../../shared/shell-display.js';

/** Keeps dpkg, apt-listbugs and apt-listchanges from asking anything. */
export const APT_ENV = {
  DEBIAN_FRONTEND: 'noninteractive',
  APT_LISTBUGS_FRONTEND: 'none',
  APT_LISTCHANGES_FRONTEND: 'none',
};

/** `/run/govern/pkg.lock`, or in GOVERN_LOCK_DIR. */
export function lockFile(): string {
  return `${lockDir()}/pkg.lock`;
}

/** The lock's directory (shared/lock-dir.ts), checked: a refusal fails the resource. */
export function privateLockDir(dir: string = lockDir()): void {
  ensureLockDir(dir);
}

/** How long a command waits for govern's package lock, and apt for dpkg's own lock. */
export const LOCK_WAIT_SECONDS = 600;
/** flock's exit status when the wait times out (EX_TEMPFAIL), so it is not taken for the command's. */
const LOCK_TIMEOUT_EXIT = 75;

export interface ToolRun {
  /** A query whose output is parsed: run in the C locale, its output not logged (the command line is). */
  query?: boolean;
}

/** A provider's commands, each run under the package lock. */
export class PackageTools {
  constructor(
    private readonly context: ProviderContext,
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
    const file = lockFile();
    const result = await this.context.run('flock', ['-w', String(LOCK_WAIT_SECONDS), '-E', String(LOCK_TIMEOUT_EXIT), file, ...argv], { env });
    if (result.spawnError) throw new UserError(`cannot run flock (util-linux), which holds the package lock: ${result.spawnError.message}`);
    if (result.code === LOCK_TIMEOUT_EXIT) {
      throw new UserError(`gave up after ${LOCK_WAIT_SECONDS}s waiting for the package lock ${file} (another govern pkg command holds it)`);
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

export function commandFailed(argv: string[], result: RunResult): UserError {
  return new UserError(commandFailure(displayCommand(argv), result));
}
