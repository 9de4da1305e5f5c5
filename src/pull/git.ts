// git, as `govern pull` runs it: never through a shell, never prompting (an unattended pull must
// fail, not wait for a password), killed with what it started after the pull's time limit; hooks and
// the configuration that runs programs off (shared/git-safety.ts).
import { GIT_SAFE_ENV, gitSafeArgs } from '../shared/git-safety.js';
import { describeFailure, runCommand, type RunResult } from '../shared/process.js';

export interface GitContext {
  gitDir: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

export class GitFailure extends Error {
  constructor(
    readonly what: string,
    readonly result: RunResult,
    timeoutMs: number,
  ) {
    // git says what went wrong first, then advice ("Please make sure you have the correct access rights").
    const output = (result.stderr.trim() || result.stdout.trim()).split('\n').filter((l) => l.trim() !== '').slice(0, 2);
    super(`git ${what} ${describeFailure(result, timeoutMs)}${output.length > 0 ? `: ${output.join(' / ')}` : ''}`);
  }
}

export interface GitRun {
  /** Variables for this command only (GIT_INDEX_FILE). */
  env?: Record<string, string>;
  /** `-c name=value` settings for this command only. */
  config?: Record<string, string>;
}

/** Runs git against the store's repository; returns its result whatever the exit status. */
export function git(c: GitContext, args: string[], run: GitRun = {}): Promise<RunResult> {
  return runCommand('git', [...gitSafeArgs(run.config), `--git-dir=${c.gitDir}`, ...args], {
    env: { ...c.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '/bin/false', SSH_ASKPASS: '/bin/false', ...GIT_SAFE_ENV, ...run.env },
    timeoutMs: c.timeoutMs,
  });
}

/** Like git, but a non-zero exit is a GitFailure naming `what` it was doing. */
export async function gitChecked(c: GitContext, what: string, args: string[], run: GitRun = {}): Promise<string> {
  const result = await git(c, args, run);
  if (result.code !== 0) throw new GitFailure(what, result, c.timeoutMs);
  return result.stdout;
}
