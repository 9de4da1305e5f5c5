// Running the tools: argv without a shell, output captured, wall time from a monotonic clock, and
// the peak resident memory from GNU time (%M: the largest single process of the tree, in KiB).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Outcome {
  argv: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** GNU time's %M, KiB; undefined when not measured. */
  maxRssKb?: number;
  /** GNU time's %U + %S: CPU time of the command and its children, less sensitive than wall time to other work on the host. */
  cpuMs?: number;
  timedOut: boolean;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  /** Send stdout to /dev/null (as `govern graph PATH >/dev/null`) instead of capturing it. */
  discardStdout?: boolean;
}

/** A PATH without the login shell's shims (pyenv, cargo): every tool runs with the system's own. */
export const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: SYSTEM_PATH, HOME: process.env.HOME ?? '/root', LANG: 'C.UTF-8', TERM: 'dumb' };
  return { ...env, ...extra };
}

const live = new Set<ChildProcess>();
/** GNU time's output files of the runs under way: removed here too when the harness is interrupted. */
const timeDirs = new Set<string>();
let stopping = false;

export class Interrupted extends Error {}

/** Kills every command still running, with what it started, and starts no more: the harness is being interrupted. */
export function killRunning(): void {
  stopping = true;
  for (const child of live) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of timeDirs) fs.rmSync(dir, { recursive: true, force: true });
}

export function run(argv: string[], options: RunOptions = {}): Promise<Outcome> {
  if (stopping) return Promise.reject(new Interrupted('interrupted'));
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), {
      env: options.env ?? baseEnv(),
      cwd: options.cwd,
      stdio: ['ignore', options.discardStdout ? 'ignore' : 'pipe', 'pipe'],
      detached: true, // own process group, so a timeout takes down everything it started
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    live.add(child);
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
        }, options.timeoutMs)
      : undefined;
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error): void => {
      live.delete(child);
      if (timer) clearTimeout(timer);
      resolve({
        argv,
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8') + (spawnError ? `\n${spawnError.message}` : ''),
        wallMs: Number(process.hrtime.bigint() - started) / 1e6,
        timedOut,
      });
    };
    child.on('error', (e) => finish(null, null, e));
    child.on('close', (code, signal) => finish(code, signal));
  });
}

export const GNU_TIME = '/usr/bin/time';

/** Runs argv under GNU time for its peak memory and CPU time; the wall time is still our own clock's. */
export async function measure(argv: string[], options: RunOptions = {}): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-bench-time-'));
  const file = path.join(dir, 'time');
  timeDirs.add(dir);
  try {
    const outcome = await run([GNU_TIME, '-f', 'govern-bench %M %U %S', '-o', file, '--', ...argv], options);
    // GNU time writes "Command exited with non-zero status N" first when the command failed.
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const m = /^govern-bench (\d+) ([\d.]+) ([\d.]+)$/m.exec(text);
    if (!m) return { ...outcome, argv };
    return { ...outcome, argv, maxRssKb: Number(m[1]), cpuMs: (Number(m[2]) + Number(m[3])) * 1000 };
  } finally {
    timeDirs.delete(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs a command that must succeed (harness set-up), and returns its stdout. */
export async function check(argv: string[], options: RunOptions = {}): Promise<string> {
  const o = await run(argv, options);
  if (o.code !== 0) throw new Error(`${argv.join(' ')} failed (${o.code ?? o.signal}):\n${(o.stderr || o.stdout).trim()}`);
  return o.stdout;
}
