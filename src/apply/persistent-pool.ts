// Runners whose description says they speak the persistent protocol are started once per run (up
// to `jobs` processes per runner) and fed resources as numbered requests, which saves a process
// start per resource (the protocol of one process: persistent-process.ts). A request goes to a free
// process; the requests of a process that crashed, timed out or broke the protocol go to another.
// The built-in runners of govern's own runners directory share processes (a host,
// src/apply/runner-host.ts): each request then names its runner.
import { HOST_RUNNERS_ENV } from '../runners/registry.js';
import type { CallResult } from '../state/runner-call.js';
import { failure, PersistentProcess, type Pending, type Request } from './persistent-process.js';
import type { RunnerHost } from './runner-host.js';

/** The processes a request goes to: those of its runner, or the host's, which serves several. */
const HOST_SLOT = '\0host';

export class RunnerPool {
  private readonly processes = new Map<string, PersistentProcess[]>();
  /** Every process started, live or not: the run waits for each to end. */
  private readonly all: PersistentProcess[] = [];
  /** Requests that wait, in order, for a process of their runner to be free. */
  private readonly queued = new Map<string, Pending[]>();
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
   * Sends a request to an idle process of the runner, else to a new one (up to `perRunner`). When
   * every process is busy, the request waits for the first to be free, as in one-shot mode it
   * would wait only for a free job, never for one given process. With one process per runner,
   * nothing could take it sooner: it is sent at once, behind the others, which saves the wait for
   * each answer.
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
    const queue = this.queued.get(slot) ?? [];
    this.queued.set(slot, queue);
    queue.push(pending);
    this.sendWaiting(slot);
  }

  /** Sends the requests waiting for this runner, in order, to the processes free to take them. */
  private sendWaiting(slot: string): void {
    const queue = this.queued.get(slot);
    while (queue !== undefined && queue.length > 0) {
      const list = this.live(slot);
      let target = list.find((p) => p.waiting === 0);
      if (!target && list.length < this.perRunner) list.push((target = this.start(slot)));
      if (!target && this.perRunner === 1) target = list[0];
      if (!target) return;
      target.send(queue.shift()!);
    }
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
    const started = new PersistentProcess(command, env, this.timeoutMs, {
      // Sent before the others waiting: they were meant to run first.
      lost: (pending) => this.queued.set(slot, [...pending, ...(this.queued.get(slot) ?? [])]),
      freed: () => this.sendWaiting(slot),
      idleFault: (why) => this.faults.set(slot, why),
    });
    this.all.push(started);
    return started;
  }

  /** Ends every process this run started, those that were stopped included, and waits until each is gone. */
  async closeAll(): Promise<void> {
    await Promise.all(this.all.map((p) => p.close()));
  }
}
