/** Maps a signed difference to -1, 0 or 1. */
export function sign(n: number): -1 | 0 | 1 {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}
