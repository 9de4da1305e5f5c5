// How a long-lived connection (govern listen) comes back to a server that went away or refused it:
// each attempt after a random wait, up to a window that doubles from FIRST_WINDOW_MS to
// MAX_WINDOW_MS ("full jitter"). The first reconnect is spread over FIRST_WINDOW_MS too, so that a
// fleet's listeners come back at about N / 10 s after a server restart rather than all at once
// (docs/fleet.md, "Reconnecting"); a connection that works again starts over.
export const FIRST_WINDOW_MS = 10_000;
export const MAX_WINDOW_MS = 300_000;

/** The window of attempt n (0: the first after a disconnect, or the second at start-up). */
export function backoffWindow(attempt: number): number {
  return Math.min(MAX_WINDOW_MS, FIRST_WINDOW_MS * 2 ** Math.min(attempt, 30));
}

export class Backoff {
  private attempt = 0;
  private connectedOnce = false;
  constructor(private readonly random: () => number = Math.random) {}

  /** The wait before the next dial: none for the very first, at start-up. */
  next(): number {
    if (!this.connectedOnce && this.attempt === 0) {
      this.attempt++;
      return 0;
    }
    const n = this.connectedOnce ? this.attempt : this.attempt - 1;
    this.attempt++;
    return Math.floor(this.random() * backoffWindow(n));
  }

  /** Connected: the next disconnect starts from the first window again. */
  connected(): void {
    this.connectedOnce = true;
    this.attempt = 0;
  }
}
