// Runs one external command without a shell: stdin closed (or fed), output captured up to a limit
// (or only its head and tail, for output that is only shown), and a timeout that kills the
// command's whole process group, so nothing it spawned outlives it.
import type { ChildProcess } from 'node:child_process';
import { HeadAndTail } from './bounded-output.js';
import { unwatchGroup } from './child-guard.js';
import { killGroupForGood } from './process-group.js';

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Kill the process group after this many milliseconds. */
  timeoutMs?: number;
  /** Text written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Keep at most this many bytes of each stream; past it the command is killed. Default 64 MiB. */
  maxOutputBytes?: number;
  /**
   * For output that is only shown (a log): keep this many bytes at each end of each stream and
   * drop the middle, with a note of how much; the command runs to its end (maxOutputBytes unused).
   */
  headAndTail?: number;
}

export interface RunResult {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The output passed maxOutputBytes and the command was killed. */
  overflowed: boolean;
  /** The command could not be started at all (ENOENT, EACCES...). */
  spawnError?: Error;
  durationMs: number;
}

// The start gate is loaded at the first command: `govern --help` loads this module (interrupt.ts
// kills what is live) and starts nothing (test/cli/modules-loaded.test.ts).
let gate: typeof import('./start-gate.js') | undefined;

const live = new Set<ChildProcess>();
/** Commands told to stop (govern's SIGTERM): what they leave in their group goes with them. */
const told = new WeakSet<ChildProcess>();
const DRAIN_MS = 200;
/** Between SIGTERM and SIGKILL at a timeout: time for a runner to kill what it started itself. */
export const KILL_GRACE_MS = 2000;

/**
 * Adds a process started elsewhere with spawnWatched (a persistent runner) to those killAllChildren
 * reaches; returns the undo, for once nothing of its group is left (not merely once the process
 * itself has exited).
 */
export function trackChild(child: ChildProcess): () => void {
  live.add(child);
  return () => {
    live.delete(child);
    unwatchGroup(child.pid);
  };
}

/** What stops new commands from starting (a runner whose govern is gone starts none); undefined: nothing. */
let refusal: (() => string | undefined) | undefined;

/**
 * From now on, a command starts only when `why` has nothing against it; otherwise runCommand fails
 * it at once with that reason, without starting anything. Asked before every start.
 */
export function startOnlyUnless(why: () => string | undefined): void {
  refusal = why;
}

/** Commands (and tracked processes) started and not yet ended. */
export function childrenRunning(): number {
  return live.size;
}

/** Kills every process group still running: for govern's own SIGINT/SIGTERM handler. */
export function killAllChildren(signal: NodeJS.Signals = 'SIGTERM'): void {
  for (const child of live) {
    told.add(child);
    killGroup(child, signal);
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** A command not started because something stands against it (govern is stopping): its message says why. */
class NotStarted extends Error {}

export function runCommand(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const started = Date.now();
  const limit = options.maxOutputBytes ?? 64 * 1024 * 1024;
  const refused = refusal?.();
  if (refused !== undefined) {
    const spawnError = new NotStarted(`${command} was not started: ${refused}`);
    return Promise.resolve({ code: null, signal: null, stdout: '', stderr: '', timedOut: false, overflowed: false, spawnError, durationMs: 0 });
  }
  return new Promise((resolve) => {
    // Its own process group, so a timeout can kill everything it started, known to the watcher
    // before it runs, so that it is killed even if govern is (start-gate.ts).
    gate ??= require('./start-gate.js') as typeof import('./start-gate.js');
    const child = gate.spawnWatched(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    live.add(child);
    const out = new Collected(options.headAndTail ?? limit, options.headAndTail === undefined);
    const err = new Collected(options.headAndTail ?? limit, options.headAndTail === undefined);
    let timedOut = false;
    let overflowed = false;
    let spawnError: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
      // SIGTERM first: a runner's own commands run in process groups of their own, and the runner
      // kills them when it gets SIGTERM (kit.ts); whatever is left is killed a moment later.
      timer = setTimeout(() => {
        timedOut = true;
        killGroup(child, 'SIGTERM');
        timer = setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS);
      }, options.timeoutMs);
    }
    const overflow = () => {
      if (!overflowed) {
        overflowed = true;
        killGroup(child, 'SIGKILL');
      }
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      if (!out.push(chunk)) overflow();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (!err.push(chunk)) overflow();
    });
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined); // the command may exit without reading its input
      child.stdin.end(options.input);
    }
    child.on('error', (e) => {
      spawnError = e;
      void finish(null, null);
    });
    // A command that leaves a background process holding its stdout would keep the pipes open
    // forever: once the command itself has exited, wait only briefly for the rest of its output.
    child.on('exit', (code, signal) => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        void finish(code, signal);
      }, DRAIN_MS).unref();
    });
    child.on('close', (code, signal) => void finish(code, signal));
    let finished = false;
    async function finish(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
      if (finished) return;
      finished = true;
      if (timer) clearTimeout(timer);
      // A command stopped (its time, its output, govern's SIGTERM) takes its group with it, before the
      // caller hears; a group still there at the deadline stays watched, for the watcher to end.
      const stopped = timedOut || overflowed || told.has(child);
      if (!stopped || child.pid === undefined || (await killGroupForGood(child.pid))) {
        live.delete(child);
        unwatchGroup(child.pid);
      }
      resolve({
        code: spawnError ? null : code,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        overflowed,
        spawnError,
        durationMs: Date.now() - started,
      });
    }
  });
}

/** One stream's output: all of it up to a limit (false past it), or its head and tail. */
class Collected {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private readonly ends: HeadAndTail | undefined;

  constructor(
    private readonly limit: number,
    exact: boolean,
  ) {
    this.ends = exact ? undefined : new HeadAndTail(limit);
  }

  push(chunk: Buffer): boolean {
    if (this.ends) {
      this.ends.push(chunk);
      return true;
    }
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return false;
    this.chunks.push(chunk);
    return true;
  }

  text(): string {
    return this.ends ? this.ends.result().text : Buffer.concat(this.chunks).toString('utf8');
  }
}

/** "exit 3", "killed by SIGKILL", "timed out after 10s", "program not found: /x": why a command did not succeed. */
export function describeFailure(result: Pick<RunResult, 'code' | 'signal' | 'timedOut' | 'overflowed' | 'spawnError'>, timeoutMs?: number): string {
  if (result.spawnError) return spawnProblem(result.spawnError);
  if (result.timedOut) return `timed out after ${timeoutMs !== undefined ? formatMs(timeoutMs) : 'its time limit'} and was killed`;
  if (result.overflowed) return 'wrote more output than allowed and was killed';
  if (result.signal) return `killed by ${result.signal}`;
  return `exit ${result.code}`;
}

/** Why spawn failed, in words: "program not found: /usr/bin/x" rather than "spawn /usr/bin/x ENOENT". */
function spawnProblem(e: Error): string {
  const err = e as NodeJS.ErrnoException & { path?: string };
  if (err.code === 'ENOENT' && err.path) return `program not found: ${err.path}`;
  if (err.code === 'EACCES' && err.path) return `permission denied: ${err.path}`;
  if (e instanceof NotStarted) return e.message;
  return `could not be started: ${e.message}`;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** The last lines of a command's output, for an error message. */
export function lastLines(text: string, count = 5): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}
