// Small statistics over samples, and the rotation that interleaves the tools round by round.

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function min(values: number[]): number {
  return values.length ? Math.min(...values) : NaN;
}

export function max(values: number[]): number {
  return values.length ? Math.max(...values) : NaN;
}

/** Round r starts with the r-th item, so no tool always runs first (warm caches) or last. */
export function rotate<T>(items: readonly T[], r: number): T[] {
  if (items.length === 0) return [];
  const k = r % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
