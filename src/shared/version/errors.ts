/** A version string the scheme cannot parse; the message says which part is wrong. */
export class InvalidVersionError extends Error {}

/** Maps a signed difference to -1, 0 or 1. */
export function sign(n: number): -1 | 0 | 1 {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}
