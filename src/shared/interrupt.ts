// govern stopped by SIGINT or SIGTERM (Ctrl-C, `systemctl stop`, a shutdown, systemd's
// TimeoutStartSec): nothing more is started, what is under way is told to stop, the run records
// what it applied with the interruption as its error, and govern exits 130 (SIGINT) or 143
// (SIGTERM), 128 plus the signal's number, as a shell reports a process that signal ended.

export type Interruption = 'SIGINT' | 'SIGTERM';

let by: Interruption | undefined;
const handlers = new Set<(signal: Interruption) => Promise<void>>();

/** The signal that interrupted govern, once one has. */
export function interruptedBy(): Interruption | undefined {
  return by;
}

export function interruptExitCode(signal: Interruption): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** What to do before govern exits on an interruption (record the run); returns the undo. */
export function onInterrupt(handler: (signal: Interruption) => Promise<void>): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

/** Marks govern interrupted and runs what was registered; for govern's signal handler, once. */
export async function interrupt(signal: Interruption): Promise<void> {
  by = signal;
  await Promise.allSettled([...handlers].map((handler) => handler(signal)));
}
