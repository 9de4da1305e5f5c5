// A JetStream cluster between leaders: when the server leading a stream (or the cluster's meta
// leader) stops, the others elect another within seconds, and meanwhile a request for the stream
// gets no answer (a timeout) or no responders. Such a request is tried again, until the command's own
// deadline, rather than failing the command; any other error is the answer.
import { DEFAULT_FLEET_TIMEOUT_MS } from './settings.js';

/** One attempt waits at most this long, so that an election ending meanwhile leaves time to try again. */
const ATTEMPT_MS = 2_000;

export function isTransient(e: unknown, clustered: boolean): boolean {
  const err = e as Error & { cause?: Error; code?: string | number };
  const text = `${err?.name ?? ''} ${err?.message ?? ''} ${err?.cause?.message ?? ''} ${err?.code ?? ''}`;
  if (/timeout|timed out|temporarily unavailable/i.test(text)) return true;
  // On one server "no responders" means no stream or no JetStream, which waiting does not change.
  return clustered && /no responders|jetstream is not enabled/i.test(text);
}

/** The time a command's fleet operations must end by, from its --fleet-timeout. */
export function deadlineIn(ms = DEFAULT_FLEET_TIMEOUT_MS): number {
  return Date.now() + ms;
}

/** work(attemptMs) until it answers or fails for good, or the deadline passes (the last error then). */
export async function untilAnswered<T>(deadline: number, clustered: boolean, work: (attemptMs: number) => Promise<T>): Promise<T> {
  for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
    const left = deadline - Date.now();
    // The last attempt outlasts the deadline, so the caller's own time limit (connection.ts, within)
    // is what ends the command, with its message, rather than this attempt's timeout.
    try {
      return await work(left > ATTEMPT_MS ? ATTEMPT_MS : Math.max(left, 0) + 1_000);
    } catch (e) {
      if (!isTransient(e, clustered) || deadline - Date.now() <= pause) throw e;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
