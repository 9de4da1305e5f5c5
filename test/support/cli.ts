// Drives govern and its runners as a user would: the real executables of this checkout.
import path from 'node:path';
import { runCommand, type RunResult } from '../../src/shared/process.js';
import { CALL_ENV, parseResult } from '../../src/shared/protocol.js';
import { currentTestTitle, writeFile } from './tmp.js';

/** The checkout's root (tests run from dist/test/...). */
export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const GOVERN = path.join(ROOT, 'bin', 'govern');
export const RUNNERS_DIR = path.join(ROOT, 'runners');

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  /** A command the runner is started under (`['unshare', '-u']`: in a UTS namespace of its own). */
  via?: string[];
}

/** Where the tests' runs record themselves (suite-dirs.ts: the suite's own lock, cache and var directories). */
export { TEST_VAR_DIR } from './suite-dirs.js';

/** Tests whose title says `#once` run in one pass only (docs/testing.md): starting a run, a test depends on the pass's runner mode and jobs. */
export const ONCE_TAG = '#once';

/**
 * The commands that read GOVERN_RUNNER_MODE or GOVERN_JOBS: a run, and those that start one (a pull,
 * a listener, the fleet's). The others (render, plan, check, fmt, data, facts...) never apply.
 */
const RUN_COMMANDS = new Set(['run', 'resource', 'pull', 'listen', 'fleet']);

export function govern(args: string[], options: CliOptions = {}): Promise<RunResult> {
  const command = args.find((a) => !a.startsWith('-'));
  if (command !== undefined && RUN_COMMANDS.has(command) && currentTestTitle()?.includes(ONCE_TAG)) {
    return Promise.reject(new Error(`"${currentTestTitle()}" starts govern ${command}, so it depends on the runner mode and jobs: remove ${ONCE_TAG} from its title`));
  }
  const env = { ...process.env, ...options.env };
  return runCommand(GOVERN, args, { env, cwd: options.cwd, timeoutMs: options.timeoutMs ?? 300_000 });
}

/** Calls a built-in runner by hand: `runners/NAME resource key=value...`. */
export function runner(name: string, args: string[], options: CliOptions = {}): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const key of CALL_ENV) {
    if (options.env?.[key] === undefined) delete env[key];
  }
  const argv = [...(options.via ?? []), path.join(RUNNERS_DIR, name), ...args];
  return runCommand(argv[0]!, argv.slice(1), { env, cwd: options.cwd, timeoutMs: options.timeoutMs ?? 300_000 });
}

export interface RunnerOutcome {
  code: number | null;
  /** The result lines. */
  changed: boolean;
  message?: string;
  diff?: string;
  stdout: string;
  stderr: string;
}

/** Calls a built-in runner by hand and reads its result lines. */
export async function runnerOutcome(name: string, args: string[], options: CliOptions = {}): Promise<RunnerOutcome> {
  const r = await runner(name, args, options);
  const { changed, message, diff } = parseResult(r.stdout);
  return { code: r.code, changed, message, diff, stdout: r.stdout, stderr: r.stderr };
}

/** Drops a POSIX sh runner into a runners directory, the way a user extends govern. */
export function shRunner(dir: string, name: string, body: string): string {
  return writeFile(path.join(dir, name), `#!/bin/sh\n${body}\n`, 0o755);
}
