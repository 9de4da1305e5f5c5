// Durations as users write them: "30s", "5m", "1h", "1h30m", "250ms", or a bare number of seconds.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  while (pos < trimmed.length) {
    part.lastIndex = pos;
    const match = part.exec(trimmed);
    if (!match) break;
    total += Number(match[1]) * UNIT_MS[match[2]];
    pos = part.lastIndex;
  }
  if (trimmed === '' || pos !== trimmed.length) {
    throw new Error(`invalid duration "${text}": use a number with s, m or h, such as 30s, 5m or 1h`);
  }
  return Math.round(total);
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)}s`;
}

/** A duration as a user would write it: "10m", "1h30m", "45s", "250ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  let rest = Math.round(ms / 1000);
  const parts: string[] = [];
  for (const [unit, seconds] of [['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (rest >= seconds) parts.push(`${Math.floor(rest / seconds)}${unit}`);
    rest %= seconds;
  }
  return parts.join('');
}
