// Rows of commands timed round by round, each row's commands in an order rotated every round (A B F,
// then B F A, then F A B), so none always runs first or last; the ratio of the first command (A) over
// each other one is taken round by round, and the medians of those ratios printed: the machine's
// drift between rounds cancels (bench/README.md, "Round four").
import { measure, type Outcome } from './proc.js';
import { median, rotate } from './stats.js';
import { mib, ratio, seconds, table } from './table.js';

export interface Timed {
  label: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** Exit codes that are not a failure (default 0 alone). */
  okCodes?: number[];
  /** Before each timed run, untimed (a fresh cache for a cold run). */
  before?: () => void;
}

export interface Row {
  name: string;
  /** The first is A, the one every ratio is of. */
  timed: Timed[];
}

export interface RowResult {
  row: Row;
  /** Outcomes by command, round by round. */
  outcomes: Outcome[][];
}

export async function timeRounds(rows: Row[], rounds: number, log: (line: string) => void): Promise<RowResult[]> {
  const results: RowResult[] = rows.map((row) => ({ row, outcomes: row.timed.map(() => []) }));
  for (let r = 0; r < rounds; r++) {
    for (const result of results) {
      const order = rotate(result.row.timed.map((_, i) => i), r);
      for (const i of order) {
        const t = result.row.timed[i]!;
        t.before?.();
        const o = await measure(t.argv, { env: t.env, discardStdout: true });
        if (!(t.okCodes ?? [0]).includes(o.code ?? -1)) throw new Error(`${t.argv.join(' ')}: exit ${o.code}\n${o.stderr}`);
        result.outcomes[i]!.push(o);
      }
    }
    log(`round ${r + 1}/${rounds}`);
  }
  return results;
}

/** The median of A's figure over X's, round by round. */
export function pairedRatio(a: Outcome[], x: Outcome[], f: (o: Outcome) => number | undefined): number {
  return median(a.map((o, i) => (f(o) ?? NaN) / (f(x[i]!) ?? NaN)));
}

export const wall = (o: Outcome): number => o.wallMs;
export const cpu = (o: Outcome): number | undefined => o.cpuMs;
export const peak = (o: Outcome): number | undefined => o.maxRssKb;

/** One line per row and comparand: medians of A and X, and the paired ratios A/X. */
export function ratioTable(results: RowResult[]): string {
  const rows: string[][] = [];
  for (const { row, outcomes } of results) {
    const a = outcomes[0]!;
    const m = (os: Outcome[], f: (o: Outcome) => number | undefined) => median(os.map((o) => f(o) ?? NaN));
    for (let i = 1; i < row.timed.length; i++) {
      const x = outcomes[i]!;
      rows.push([row.name, `${row.timed[0]!.label} / ${row.timed[i]!.label}`, `${seconds(m(a, wall))} / ${seconds(m(x, wall))}`, ratio(pairedRatio(a, x, wall)), `${seconds(m(a, cpu))} / ${seconds(m(x, cpu))}`, ratio(pairedRatio(a, x, cpu)), `${mib(m(a, peak))} / ${mib(m(x, peak))}`, ratio(pairedRatio(a, x, peak))]);
    }
  }
  return table(['workload', 'A / X', 'wall', 'A/X wall', 'CPU', 'A/X CPU', 'peak memory', 'A/X peak'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']);
}
