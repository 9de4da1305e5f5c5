// `govern fleet`'s answer, from the two buckets' values: one row per selected host, and the fleet as
// one monitoring check (monitoring-plugins' codes: CRITICAL when a host failed its last run, WARNING
// when one has not reported within the maximum age, UNKNOWN when no host is selected), with
// performance data. The check's line comes first, the table after it, as a plugin's long output.
import { formatDuration } from '../shared/duration.js';
import type { HostFacts, HostRun } from './host-record.js';
import { matches, type Condition } from './selection.js';

export type HostState = 'ok' | 'failed' | 'stale' | 'unreported';

export interface HostRow {
  host: string;
  state: HostState;
  /** Seconds since the last run ended; undefined when no run was published. */
  age_seconds?: number;
  run?: HostRun;
}

export interface FleetAnswer {
  code: 0 | 1 | 2 | 3;
  line: string;
  rows: HostRow[];
}

const NAMES = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'] as const;

export function fleetRows(runs: Map<string, HostRun>, facts: Map<string, HostFacts>, where: readonly Condition[], nowMs: number, maxAgeMs: number): HostRow[] {
  // sort() without a function orders by code units, as byName does, and is faster at 10,000 hosts.
  const hosts = [...new Set([...runs.keys(), ...facts.keys()])].filter((h) => where.length === 0 || matches(facts.get(h), where)).sort();
  return hosts.map((host) => {
    const run = runs.get(host);
    if (run === undefined) return { host, state: 'unreported' };
    const age = Math.max(0, nowMs - Date.parse(run.ended_at));
    const state: HostState = !run.success ? 'failed' : age > maxAgeMs ? 'stale' : 'ok';
    return { host, state, age_seconds: Math.round(age / 1000), run };
  });
}

export function fleetAnswer(rows: HostRow[], maxAgeMs: number): FleetAnswer {
  const by: Record<HostState, HostRow[]> = { ok: [], failed: [], stale: [], unreported: [] };
  for (const r of rows) by[r.state].push(r);
  const count = (s: HostState) => by[s];
  const failed = by.failed;
  const late = [...by.stale, ...by.unreported];
  const code = rows.length === 0 ? 3 : failed.length > 0 ? 2 : late.length > 0 ? 1 : 0;
  const parts: string[] = [];
  if (rows.length === 0) parts.push('no host matches');
  if (failed.length > 0) parts.push(`${failed.length} of ${rows.length} host${rows.length === 1 ? '' : 's'} failed their last run (${names(failed)})`);
  if (late.length > 0) parts.push(`${late.length} not reported within ${formatDuration(maxAgeMs)} (${names(late)})`);
  if (parts.length === 0) parts.push(`${rows.length} host${rows.length === 1 ? '' : 's'} ran successfully within ${formatDuration(maxAgeMs)}`);
  const commits = new Set(rows.map((r) => r.run?.commit).filter((c) => c !== undefined)).size;
  const perf = [
    `hosts=${rows.length};;;0`,
    `ok=${count('ok').length};;;0`,
    `failed=${failed.length};;0;0`,
    `stale=${late.length};0;;0`,
    `commits=${commits};;;0`,
    `changed=${rows.reduce((n, r) => n + (r.run?.summary.changed ?? 0), 0)};;;0`,
  ];
  const text = parts.join('; ').replace(/\|/g, '/').replace(/\n/g, ' ');
  return { code, line: `GOVERN FLEET ${NAMES[code]} - ${text} | ${perf.join(' ')}`, rows };
}

/** The first few names, and how many more. */
function names(rows: HostRow[]): string {
  const shown = rows.slice(0, 5).map((r) => r.host);
  return rows.length > 5 ? `${shown.join(', ')} and ${rows.length - 5} more` : shown.join(', ');
}

export function fleetTable(rows: HostRow[]): string {
  const table = [['HOST', 'RESULT', 'AGE', 'CHANGED', 'FAILED', 'COMMIT', 'VERSION']];
  for (const r of rows) {
    const s = r.run?.summary;
    table.push([
      r.host,
      r.state,
      r.age_seconds === undefined ? '-' : r.age_seconds === 0 ? '0s' : formatDuration(r.age_seconds * 1000),
      s ? String(s.changed) : '-',
      s ? String(s.failed) : '-',
      r.run?.commit?.slice(0, 12) ?? '-',
      r.run?.govern_version ?? '-',
    ]);
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  return table.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}

export function fleetJson(answer: FleetAnswer): string {
  return `${JSON.stringify({ status: NAMES[answer.code], code: answer.code, hosts: answer.rows }, null, 2)}\n`;
}
