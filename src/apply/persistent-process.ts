// One process of a runner that speaks the persistent protocol: numbered requests written to its
// stdin, answers read from its stdout in order. Requests may be sent ahead of the answers (the
// runner answers in order); an answer must carry the number of the request it answers, so one that
// is malformed, out of order or extra fails a resource with a message instead of being taken for
// another's. A process that crashes, times out or breaks the protocol fails the request it was
// handling; those sent after it are handed back (to go to another process).
import type { ChildProcess } from 'node:child_process';
import { readBoundedLines } from '../shared/bounded-lines.js';
import { answerShaped, MAX_LINE_CHARS, PERSISTENT_ENV, readAnswer, type PersistentRequest, type PersistentResponse } from '../shared/persistent.js';
import { KILL_GRACE_MS, trackChild } from '../shared/process.js';
import { killGroupForGood } from '../shared/process-group.js';
import { spawnWatched } from '../shared/start-gate.js';
import type { CallResult } from '../state/runner-call.js';

/** After a runner exits, how long its pipes may stay open (held by something it started) before govern stops reading. */
const DRAIN_MS = 200;

export type Request = Omit<PersistentRequest, 'id'>;

export interface Pending {
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

export function failure(message: string, log: string[] = [], started?: number): CallResult {
  return { ok: false, changed: false, message, log, durationMs: started === undefined ? 0 : Date.now() - started };
}

/** A line for a message, cut short. */
function excerpt(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

export interface ProcessEvents {
  /** Requests sent but never started on when the process ended: to be sent again elsewhere. */
  lost(pending: Pending[]): void;
  /** The process answered the last request it was sent, or will take no more: a request waiting may go. */
  freed(): void;
  /** The runner broke the protocol while no request was waiting. */
  idleFault(why: string): void;
}

export class PersistentProcess {
  private readonly child: ChildProcess;
  /** Sent and not answered, in order: the first is the one the runner is working on. */
  private readonly queue: Pending[] = [];
  private nextId = 1;
  /** stderr, and stdout lines that are not answers, since the current request started. */
  private log: string[] = [];
  private ended = false;
  private killed = false;
  /** Once it has exited: settled when nothing of its process group is left (or left to the watcher). */
  private groupEnded: Promise<void> | undefined;
  private fault: string | undefined;

  constructor(
    command: readonly [string, string[]],
    env: NodeJS.ProcessEnv,
    private readonly timeoutMs: number,
    private readonly events: ProcessEvents,
  ) {
    this.child = spawnWatched(command[0], command[1], { env: { ...env, [PERSISTENT_ENV]: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const untrack = trackChild(this.child); // so that govern's own SIGINT/SIGTERM takes it down too
    this.child.stdin!.on('error', () => undefined);
    const tooLong = (stream: string) => () => this.violation(`wrote a line longer than ${MAX_LINE_CHARS} characters on ${stream}`);
    readBoundedLines(this.child.stdout!, MAX_LINE_CHARS, { line: (line) => this.onLine(line), overflow: tooLong('stdout') });
    readBoundedLines(this.child.stderr!, MAX_LINE_CHARS, { line: (line) => this.log.push(line), overflow: tooLong('stderr') });
    // The end is seen once the process has exited and its output has been read to the last line.
    let open = 2;
    let exitWhy: string | undefined;
    /** Settled once the output has been read to its end after the exit (or given up on). */
    let drained: () => void = () => undefined;
    const closed = () => {
      if (--open === 0 && exitWhy !== undefined) {
        drained();
        this.end(exitWhy);
      }
    };
    this.child.stdout!.on('close', closed);
    this.child.stderr!.on('close', closed);
    this.child.on('error', (e) => this.end(`could not be started: ${e.message}`));
    this.child.on('exit', (code, signal) => {
      // What it left in its group ends with it, once what it left has written the output still
      // coming (an answer written by a child a moment after the runner exited is read): the group is
      // watched until nothing of it is left, so that a govern killed meanwhile still takes it down
      // (the watcher), not merely the runner.
      const pid = this.child.pid!;
      const outputRead = new Promise<void>((resolve) => (drained = resolve));
      this.groupEnded = outputRead.then(() => killGroupForGood(pid)).then((gone) => void (gone && untrack()));
      exitWhy = signal ? `killed by ${signal}` : `exit ${code}`;
      if (open === 0) {
        drained();
        this.end(exitWhy);
      } else {
        const why = exitWhy;
        setTimeout(() => {
          this.child.stdout!.destroy();
          this.child.stderr!.destroy();
          drained();
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
    const stdin = this.child.stdin!;
    // The requests sent in one turn (the resources that became ready together) go in one write.
    if (stdin.writableCorked === 0) {
      stdin.cork();
      process.nextTick(() => stdin.uncork());
    }
    stdin.write(JSON.stringify({ id: pending.id, ...pending.request }) + '\n');
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
    else if (this.queue.length === 0) this.events.freed();
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
    this.events.freed();
  }

  private takeLog(): string[] {
    const log = this.log;
    this.log = [];
    return log;
  }

  /** SIGTERM (the kit then kills the commands it started), SIGKILL a moment later. */
  kill(): void {
    if (this.killed) return;
    this.killed = true; // never handed another request, even before its exit is seen
    const pid = this.child.pid;
    if (pid === undefined || this.ended) return;
    this.events.freed();
    // Once the runner has exited, what is left of its group is killed at once (the exit handler).
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.signalGroup('SIGTERM');
    const insist = setTimeout(() => this.signalGroup('SIGKILL'), KILL_GRACE_MS).unref();
    this.child.once('exit', () => clearTimeout(insist));
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // gone already
    }
  }

  /**
   * Ends the process: EOF on its stdin (it answers what it was sent, then exits), and a kill if it
   * does not leave. Resolves once it has exited, and, when it was killed, nothing of its group is left.
   */
  async close(): Promise<void> {
    if (this.child.pid === undefined) return;
    if (this.child.exitCode === null && this.child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.kill(), 5000);
        this.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        this.child.stdin!.end();
      });
    }
    await this.groupEnded;
  }
}

