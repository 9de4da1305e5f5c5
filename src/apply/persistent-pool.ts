// Runners whose description says they speak the persistent protocol are started once per run (up
// to `jobs` processes per runner) and fed resources as numbered requests, which saves a process
// start per resource. Requests may be sent ahead of the answers (the runner answers in order); an
// answer must carry the number of the request it answers, so one that is malformed, out of order or
// extra fails a resource with a message instead of being taken for another's. A process that
// crashes, times out or breaks the protocol fails the request it was handling; the requests sent
// after it go to a new process. The built-in runners of govern's own runners directory share
// processes (a host, src/apply/runner-host.ts): each request then names its runner.
import { spawn, type ChildProcess } from 'node:child_process';
import { HOST_RUNNERS_ENV } from '../runners/hosted.js';
import { readyToWatch } from '../shared/child-guard.js';
import { readBoundedLines } from '../shared/bounded-lines.js';
import { answerShaped, MAX_LINE_CHARS, PERSISTENT_ENV, readAnswer, type PersistentRequest, type PersistentResponse } from '../shared/persistent.js';
import { KILL_GRACE_MS, trackChild } from '../shared/process.js';
import type { CallResult } from './invoke.js';
import type { RunnerHost } from './runner-host.js';

/** After a runner exits, how long its pipes may stay open (held by something it started) before govern stops reading. */
const DRAIN_MS = 200;

type Request = Omit<PersistentRequest, 'id'>;

interface Pending {
  request: Request;
  resolve(result: CallResult): void;
  /** This process's number for it, once sent. */
  id?: number;
  /** When the runner started on it: when the answer before it arrived. */
  started?: number;
  timer?: NodeJS.Timeout;
  /** Set when the time limit passed: the answer (or the exit) still settles it, as a failure. */
  timedOut?: string;
}

function failure(message: string, log: string[] = [], started?: number): CallResult {
  return { ok: false, changed: false, message, log, durationMs: started === undefined ? 0 : Date.now() - started };
}

/** A line for a message, cut short. */
function excerpt(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

interface ProcessEvents {
  /** Requests sent but never started on when the process ended: to be sent again elsewhere. */
  lost(pending: Pending[]): void;
  /** The runner broke the protocol while no request was waiting. */
  idleFault(why: string): void;
}

class PersistentProcess {
  private readonly child: ChildProcess;
  /** Sent and not answered, in order: the first is the one the runner is working on. */
  private readonly queue: Pending[] = [];
  private nextId = 1;
  /** stderr, and stdout lines that are not answers, since the current request started. */
  private log: string[] = [];
  private ended = false;
  private killed = false;
  private fault: string | undefined;

  constructor(
    command: readonly [string, string[]],
    env: NodeJS.ProcessEnv,
    private readonly timeoutMs: number,
    private readonly events: ProcessEvents,
  ) {
    readyToWatch();
    this.child = spawn(command[0], command[1], { env: { ...env, [PERSISTENT_ENV]: '1' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const untrack = trackChild(this.child); // so that govern's own SIGINT/SIGTERM takes it down too
    this.child.stdin!.on('error', () => undefined);
    const tooLong = (stream: string) => () => this.violation(`wrote a line longer than ${MAX_LINE_CHARS} characters on ${stream}`);
    readBoundedLines(this.child.stdout!, MAX_LINE_CHARS, { line: (line) => this.onLine(line), overflow: tooLong('stdout') });
    readBoundedLines(this.child.stderr!, MAX_LINE_CHARS, { line: (line) => this.log.push(line), overflow: tooLong('stderr') });
    // The end is seen once the process has exited and its output has been read to the last line.
    let open = 2;
    let exitWhy: string | undefined;
    const closed = () => {
      if (--open === 0 && exitWhy !== undefined) this.end(exitWhy);
    };
    this.child.stdout!.on('close', closed);
    this.child.stderr!.on('close', closed);
    this.child.on('error', (e) => this.end(`could not be started: ${e.message}`));
    this.child.on('exit', (code, signal) => {
      untrack();
      exitWhy = signal ? `killed by ${signal}` : `exit ${code}`;
      if (open === 0) this.end(exitWhy);
      else {
        const why = exitWhy;
        setTimeout(() => {
          this.child.stdout!.destroy();
          this.child.stderr!.destroy();
          this.end(why);
        }, DRAIN_MS);
      }
    });
  }

  get alive(): boolean {
    return !this.ended && !this.killed && this.fault === undefined;
  }

  /** Requests sent and not yet answered. */
  get waiting(): number {
    return this.queue.length;
  }

  send(pending: Pending): void {
    pending.id = this.nextId++;
    this.queue.push(pending);
    this.child.stdin!.write(JSON.stringify({ id: pending.id, ...pending.request }) + '\n');
    if (this.queue.length === 1) this.begin(pending);
  }

  private begin(pending: Pending): void {
    pending.started = Date.now();
    if (this.timeoutMs > 0) {
      pending.timer = setTimeout(() => {
        // Stopped, not forgotten: the runner still answers (with its log) or exits, within the grace.
        pending.timedOut = `timed out after ${this.timeoutMs / 1000}s and was killed`;
        this.kill();
      }, this.timeoutMs);
    }
  }

  private onLine(line: string): void {
    if (this.fault !== undefined) return;
    const shaped = answerShaped(line);
    if (!shaped) {
      this.log.push(line); // not an answer: keep it as log
      return;
    }
    const answer = readAnswer(shaped);
    const head = this.queue[0];
    if ('problem' in answer) this.violation(`wrote an answer that is not valid (${answer.problem}): ${excerpt(line)}`);
    else if (!head) this.violation(`answered request ${answer.id}, but no request was waiting: ${excerpt(line)}`);
    else if (answer.id !== head.id) {
      const which = answer.id < head.id! && answer.id > 0 ? 'which was answered already' : 'which was never sent';
      this.violation(`answered request ${answer.id}, ${which}, while request ${head.id} was waiting: ${excerpt(line)}`);
    } else this.answered(answer);
  }

  private answered(response: PersistentResponse): void {
    const pending = this.queue.shift()!;
    if (pending.timer) clearTimeout(pending.timer);
    const message = pending.timedOut ? `${response.message ? `${response.message} ` : ''}(${pending.timedOut})` : (response.message ?? '');
    pending.resolve({
      ok: response.ok && !pending.timedOut,
      changed: response.ok && !pending.timedOut && response.changed,
      message,
      ...(response.diff !== undefined ? { diff: response.diff } : {}),
      log: [...response.log, ...this.takeLog()],
      durationMs: Date.now() - pending.started!,
    });
    if (this.queue.length > 0 && !this.killed) this.begin(this.queue[0]);
  }

  /** The runner cannot be trusted any more: the request it was working on fails, the rest go elsewhere. */
  private violation(why: string): void {
    if (this.fault !== undefined || this.ended) return;
    this.fault = why;
    const head = this.queue.shift();
    if (head) {
      if (head.timer) clearTimeout(head.timer);
      head.resolve(failure(`runner broke the persistent protocol: ${why}`, this.takeLog(), head.started));
    } else this.events.idleFault(why);
    this.kill();
  }

  private end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    // Only the request the runner was working on fails: after a fault or a kill, none was.
    const head = this.queue[0]?.started !== undefined ? this.queue.shift() : undefined;
    if (head) {
      if (head.timer) clearTimeout(head.timer);
      const log = this.takeLog();
      const detail = log[log.length - 1];
      if (head.timedOut) head.resolve(failure(`${detail ?? 'runner failed'} (${head.timedOut})`, log, head.started));
      else {
        const early = why.startsWith('exit') ? ' before answering; a persistent runner serves requests until its stdin closes' : '';
        head.resolve(failure(`${detail ?? 'no answer'} (runner ${why}${early})`, log, head.started));
      }
    }
    const lost = this.queue.splice(0);
    for (const pending of lost) if (pending.timer) clearTimeout(pending.timer);
    if (lost.length > 0) this.events.lost(lost);
  }

  private takeLog(): string[] {
    const log = this.log;
    this.log = [];
    return log;
  }

  /** SIGTERM (the kit then kills the commands it started), SIGKILL a moment later. */
  kill(): void {
    this.killed = true; // never handed another request, even before its exit is seen
    if (this.child.pid === undefined || this.ended) return;
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
    if (this.ended || this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
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

/** The processes a request goes to: those of its runner, or the host's, which serves several. */
const HOST_SLOT = '\0host';

export class RunnerPool {
  private readonly processes = new Map<string, PersistentProcess[]>();
  /** A protocol fault of a runner seen between requests: the next request to that runner fails with it. */
  private readonly faults = new Map<string, string>();
  /** The hosted runners this run has asked for so far: a host started now prepares them. */
  private readonly hosted = new Set<string>();
  private processesStarted = 0;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly perRunner: number,
    private readonly timeoutMs: number,
    private readonly host?: RunnerHost,
  ) {}

  /** Processes started so far. */
  get started(): number {
    return this.processesStarted;
  }

  /**
   * Sends a request at once: to an idle process of the runner, else to a new one (up to
   * `perRunner`), else behind the requests already sent to the least loaded one.
   */
  call(executable: string, request: Request): Promise<CallResult> {
    const runner = this.hostedRunner(executable);
    const slot = runner !== undefined ? HOST_SLOT : executable;
    return new Promise((resolve) => this.dispatch(slot, { request: runner !== undefined ? { ...request, runner } : request, resolve }));
  }

  /** Starts one process of each runner now, so their start-up overlaps other work instead of queueing behind the first call. */
  warm(executables: Iterable<string>): void {
    const slots = new Set([...executables].map((executable) => (this.hostedRunner(executable) !== undefined ? HOST_SLOT : executable)));
    for (const slot of slots) if (this.live(slot).length === 0) this.processes.get(slot)!.push(this.start(slot));
  }

  /** The runner the host serves for this executable (noted, for the hosts started later), or undefined. */
  private hostedRunner(executable: string): string | undefined {
    const runner = this.host?.serves(executable);
    if (runner !== undefined) this.hosted.add(runner);
    return runner;
  }

  private dispatch(slot: string, pending: Pending): void {
    const fault = this.faults.get(slot);
    if (fault !== undefined) {
      this.faults.delete(slot);
      pending.resolve(failure(`runner broke the persistent protocol after its last answer: ${fault}`));
      return;
    }
    const list = this.live(slot);
    let target = list.find((p) => p.waiting === 0);
    if (!target && list.length < this.perRunner) list.push((target = this.start(slot)));
    target ??= list.reduce((a, b) => (b.waiting < a.waiting ? b : a));
    target.send(pending);
  }

  /** The processes of a runner (or of the host) that can take requests. */
  private live(slot: string): PersistentProcess[] {
    const list = (this.processes.get(slot) ?? []).filter((p) => p.alive);
    this.processes.set(slot, list);
    return list;
  }

  private start(slot: string): PersistentProcess {
    this.processesStarted++;
    const hosting = slot === HOST_SLOT && this.host !== undefined;
    const command: readonly [string, string[]] = hosting ? this.host!.command : [slot, []];
    const env = hosting ? { ...this.env, [HOST_RUNNERS_ENV]: [...this.hosted].sort().join(',') } : this.env;
    return new PersistentProcess(command, env, this.timeoutMs, {
      lost: (pending) => pending.forEach((p) => this.dispatch(slot, p)),
      idleFault: (why) => this.faults.set(slot, why),
    });
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.processes.values()].flat().map((p) => p.close()));
  }
}
