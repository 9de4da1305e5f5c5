// Plain-text tables, in Markdown so they can go into bench/README.md as they are.

export function table(header: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number): string => (align[i] === 'r' ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  const line = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function seconds(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  return ms < 10_000 ? `${(ms / 1000).toFixed(3)} s` : `${(ms / 1000).toFixed(1)} s`;
}

export function mib(kb: number | undefined): string {
  return kb === undefined || !Number.isFinite(kb) ? '-' : `${(kb / 1024).toFixed(1)} MiB`;
}

export function ratio(x: number): string {
  if (!Number.isFinite(x)) return '-';
  return x < 0.1 ? x.toFixed(3) : x.toFixed(2);
}
