// Runners whose description says they speak the persistent protocol are started once per run (up
// to `jobs` processes per runner) and fed resources one at a time, which saves a process start per
// resource. A process that crashes or times out fails the resource it was handling and is replaced
// for the next one.
import type { ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import spawn from 'cross-spawn';
import { PERSISTENT_ENV, type PersistentRequest, type PersistentResponse } from '../shared/persistent.js';
import { KILL_GRACE_MS, trackChild } from '../shared/process.js';
import type { CallResult } from './invoke.js';

interface Pending {
  resolve(result: CallResult): void;
  started: number;
  timer?: NodeJS.Timeout;
  /** Set when the time limit passed: the answer (or the exit) still settles it, as a failure. */
  timedOut?: string;
}

/** An answer as the protocol defines it; anything else on stdout is log. */
function asResponse(line: string): PersistentResponse | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || typeof (value as { ok?: unknown }).ok !== 'boolean') return undefined;
  const v = value as Record<string, unknown>;
  return {
    ok: v.ok as boolean,
    changed: v.changed === true,
    message: typeof v.message === 'string' ? v.message : undefined,
    diff: typeof v.diff === 'string' ? v.diff : undefined,
    log: Array.isArray(v.log) ? v.log.map(String) : [],
  };
}

class PersistentProcess {
  private readonly child: ChildProcess;
  private pending: Pending | undefined;
  private stderr: string[] = [];
  private exited = false;
  private killed = false;
  busy = false;

  constructor(executable: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(executable, [], { env: { ...env, [PERSISTENT_ENV]: '1' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const untrack = trackChild(this.child); // so that govern's own SIGINT/SIGTERM takes it down too
    this.child.stdin!.on('error', () => undefined);
    readline.createInterface({ input: this.child.stdout!, crlfDelay: Infinity }).on('line', (line) => this.onLine(line));
    readline.createInterface({ input: this.child.stderr!, crlfDelay: Infinity }).on('line', (line) => this.stderr.push(line));
    this.child.on('error', (e) => this.onExit(`could not be started: ${e.message}`));
    this.child.on('exit', (code, signal) => {
      untrack();
      this.onExit(signal ? `killed by ${signal}` : `exit ${code}`);
    });
  }

  get alive(): boolean {
    return !this.exited && !this.killed;
  }

  request(request: PersistentRequest, timeoutMs: number): Promise<CallResult> {
    this.busy = true;
    this.stderr = [];
    return new Promise((resolve) => {
      const pending: Pending = { resolve, started: Date.now() };
      if (timeoutMs > 0) {
        pending.timer = setTimeout(() => {
          // Stopped, not forgotten: the runner still answers (with its log) or exits, within the grace.
          pending.timedOut = `timed out after ${timeoutMs / 1000}s and was killed`;
          this.kill();
        }, timeoutMs);
      }
      this.pending = pending;
      this.child.stdin!.write(JSON.stringify(request) + '\n');
    });
  }

  private onLine(line: string): void {
    const response = asResponse(line);
    if (response) this.settle(response);
    else this.stderr.push(line); // not an answer: keep it as log
  }

  private onExit(why: string): void {
    this.exited = true;
    if (this.pending) {
      const detail = this.stderr[this.stderr.length - 1];
      if (this.pending.timedOut) this.settle({ ok: false, changed: false, message: detail ?? 'runner failed', log: [] });
      else {
        const early = why.startsWith('exit') ? ' before answering; a persistent runner serves requests until its stdin closes' : '';
        this.settle({ ok: false, changed: false, message: `${detail ?? 'no answer'} (runner ${why}${early})`, log: [] });
      }
    }
  }

  private settle(response: PersistentResponse): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    if (pending.timer) clearTimeout(pending.timer);
    this.busy = false;
    const message = pending.timedOut ? `${response.message ? `${response.message} ` : ''}(${pending.timedOut})` : (response.message ?? '');
    pending.resolve({
      ok: response.ok && !pending.timedOut,
      changed: response.ok && !pending.timedOut && response.changed,
      message,
      ...(response.diff !== undefined ? { diff: response.diff } : {}),
      log: [...response.log, ...this.stderr],
      durationMs: Date.now() - pending.started,
    });
  }

  /** SIGTERM (the kit then kills the commands it started), SIGKILL a moment later. */
  kill(): void {
    this.killed = true; // never handed another request, even before its exit is seen
    if (this.child.pid === undefined || this.exited) return;
    const pid = this.child.pid;
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        // gone already
      }
    };
    signalGroup('SIGTERM');
    setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS).unref();
  }

  /** Ends the process: EOF on its stdin, and a kill if it does not leave. */
  close(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.kill(), 5000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.stdin!.end();
    });
  }
}

export class RunnerPool {
  private readonly processes = new Map<string, PersistentProcess[]>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly perRunner: number,
    private readonly timeoutMs: number,
  ) {}

  async call(executable: string, request: PersistentRequest): Promise<CallResult> {
    const process = await this.acquire(executable);
    try {
      return await process.request(request, this.timeoutMs);
    } finally {
      this.release(executable);
    }
  }

  /** Starts one process of each runner now, so their start-up overlaps instead of queueing behind the first call. */
  warm(executables: Iterable<string>): void {
    for (const executable of executables) {
      if ((this.processes.get(executable) ?? []).length === 0) this.processes.set(executable, [new PersistentProcess(executable, this.env)]);
    }
  }

  private async acquire(executable: string): Promise<PersistentProcess> {
    for (;;) {
      const list = (this.processes.get(executable) ?? []).filter((p) => p.alive);
      this.processes.set(executable, list);
      const idle = list.find((p) => !p.busy);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (list.length < this.perRunner) {
        const started = new PersistentProcess(executable, this.env);
        started.busy = true;
        list.push(started);
        return started;
      }
      await new Promise<void>((resolve) => this.waiting.set(executable, [...(this.waiting.get(executable) ?? []), resolve]));
    }
  }

  private release(executable: string): void {
    const next = this.waiting.get(executable)?.shift();
    next?.();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.processes.values()].flat().map((p) => p.close()));
  }
}
