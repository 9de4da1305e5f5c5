// `govern fleet`'s answer, from the two buckets' values: one row per selected host, and the fleet as
// one monitoring check (monitoring-plugins' codes: CRITICAL when a host failed its last run or
// returned to its last good commit, as that host's own `govern status` says, WARNING when one has
// not reported within the maximum age, UNKNOWN when no host is selected), with
// performance data. The check's line comes first, the table after it, as a plugin's long output.
// What hosts published is checked first (published.ts): a host whose record does not follow the
// schema is one row flagged `invalid`, and the rest of the fleet is shown as it is.
import { formatDuration } from '../shared/duration.js';
import { terminalLine } from '../shared/terminal-text.js';
import type { HostRun } from './host-record.js';
import { checkFacts, checkRun } from './published.js';
import { matches, type Condition } from './selection.js';

export type HostState = 'ok' | 'failed' | 'reverted' | 'stale' | 'unreported' | 'invalid';

export interface HostRow {
  host: string;
  state: HostState;
  /** Seconds since the last run ended; undefined when no run was published. */
  age_seconds?: number;
  /** The last run, when what the host published is valid. */
  run?: HostRun;
  /** Why what the host published was not taken (state `invalid`). */
  problem?: string;
}

export interface FleetAnswer {
  code: 0 | 1 | 2 | 3;
  line: string;
  rows: HostRow[];
}

const NAMES = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'] as const;

/**
 * The selected hosts' rows, from the buckets' values as read (not yet checked). A host whose facts
 * are not valid cannot be matched against --where: it is shown, flagged, in every selection, so
 * that a host publishing what it should not is seen rather than silently left out.
 */
export function fleetRows(runs: Map<string, unknown>, facts: Map<string, unknown>, where: readonly Condition[], nowMs: number, maxAgeMs: number, changedSinceMs?: number): HostRow[] {
  // sort() without a function orders by code units, as byName does, and is faster at 10,000 hosts.
  const hosts = [...new Set([...runs.keys(), ...facts.keys()])].sort();
  const rows: HostRow[] = [];
  for (const host of hosts) {
    const f = facts.has(host) ? checkFacts(host, facts.get(host), nowMs) : undefined;
    if (where.length > 0 && f?.ok !== false && !matches(f?.value, where)) continue;
    const r = runs.has(host) ? checkRun(host, runs.get(host), nowMs) : undefined;
    if (changedSinceMs !== undefined && r?.ok !== false && !changedSince(r?.value, nowMs - changedSinceMs)) continue;
    const problems = [f, r].flatMap((c) => (c !== undefined && !c.ok ? [c.problem] : []));
    const run = r?.ok ? r.value : undefined;
    const age = run === undefined ? undefined : Math.max(0, nowMs - Date.parse(run.ended_at));
    const seen = { host, ...(age === undefined ? {} : { age_seconds: Math.round(age / 1000) }), ...(run === undefined ? {} : { run }) };
    if (problems.length > 0) rows.push({ ...seen, state: 'invalid', problem: problems.join('; ') });
    else if (run === undefined) rows.push({ host, state: 'unreported' });
    else rows.push({ ...seen, state: !run.success ? 'failed' : run.reverted !== undefined ? 'reverted' : age! > maxAgeMs ? 'stale' : 'ok' });
  }
  return rows;
}

/** --changed-since: the last run changed something and ended at `sinceMs` or later. An invalid run is shown, as for --where. */
function changedSince(run: HostRun | undefined, sinceMs: number): boolean {
  return run !== undefined && run.summary.changed > 0 && Date.parse(run.ended_at) >= sinceMs;
}

/** `hint`: said after "no host matches" (selection.ts, selectionHint). */
export function fleetAnswer(rows: HostRow[], maxAgeMs: number, hint = ''): FleetAnswer {
  const by: Record<HostState, HostRow[]> = { ok: [], failed: [], reverted: [], stale: [], unreported: [], invalid: [] };
  for (const r of rows) by[r.state].push(r);
  const count = (s: HostState) => by[s];
  const failed = by.failed;
  const late = [...by.stale, ...by.unreported];
  const invalid = by.invalid;
  const reverted = by.reverted;
  const code = rows.length === 0 ? 3 : failed.length > 0 || reverted.length > 0 ? 2 : late.length > 0 || invalid.length > 0 ? 1 : 0;
  const parts: string[] = [];
  if (rows.length === 0) parts.push(`no host matches${hint}`);
  if (failed.length > 0) parts.push(`${failed.length} of ${rows.length} host${rows.length === 1 ? '' : 's'} failed their last run (${names(failed)})`);
  if (reverted.length > 0) parts.push(`${reverted.length} returned to their last good commit (${names(reverted)})`);
  if (late.length > 0) parts.push(`${late.length} not reported within ${formatDuration(maxAgeMs)} (${names(late)})`);
  if (invalid.length > 0) parts.push(`${invalid.length} published what is not valid (${names(invalid)})`);
  if (parts.length === 0) parts.push(`${rows.length} host${rows.length === 1 ? '' : 's'} ran successfully within ${formatDuration(maxAgeMs)}`);
  const commits = new Set(rows.map((r) => r.run?.commit).filter((c) => c !== undefined)).size;
  const perf = [
    `hosts=${rows.length};;;0`,
    `ok=${count('ok').length};;;0`,
    `failed=${failed.length};;0;0`,
    `stale=${late.length};0;;0`,
    `commits=${commits};;;0`,
    `changed=${rows.reduce((n, r) => n + (r.run?.summary.changed ?? 0), 0)};;;0`,
    `invalid=${invalid.length};0;;0`,
    `reverted=${reverted.length};;0;0`,
  ];
  const text = parts.join('; ').replace(/\|/g, '/').replace(/\n/g, ' ');
  return { code, line: `GOVERN FLEET ${NAMES[code]} - ${text} | ${perf.join(' ')}`, rows };
}

/** The first few names, and how many more. */
function names(rows: HostRow[]): string {
  const shown = rows.slice(0, 5).map((r) => cell(r.host));
  return rows.length > 5 ? `${shown.join(', ')} and ${rows.length - 5} more` : shown.join(', ');
}

/** A published text for a cell: control characters escaped, and no longer than a cell should be. */
export function cell(text: string, max = 64): string {
  const line = terminalLine(text);
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}

export function fleetTable(rows: HostRow[]): string {
  const table = [['HOST', 'RESULT', 'AGE', 'CHANGED', 'FAILED', 'STAGE', 'COMMIT', 'VERSION']];
  const notes: string[] = [];
  for (const r of rows) {
    const s = r.run?.summary;
    table.push([
      cell(r.host),
      r.state,
      r.age_seconds === undefined ? '-' : r.age_seconds === 0 ? '0s' : formatDuration(r.age_seconds * 1000),
      s ? String(s.changed) : '-',
      s ? String(s.failed) : '-',
      r.run?.stage === undefined ? '-' : String(r.run.stage),
      r.run?.commit === undefined ? '-' : cell(r.run.commit.slice(0, 12)),
      r.run === undefined ? '-' : cell(r.run.govern_version, 20),
    ]);
    if (r.problem !== undefined) notes.push(`${cell(r.host)}: ${cell(r.problem, 200)}`);
    if (r.run?.reverted !== undefined) notes.push(`${cell(r.host)}: reverted from ${cell(r.run.reverted.from.slice(0, 12))} to ${cell(r.run.reverted.to.slice(0, 12))} (${cell(r.run.reverted.reason, 200)})`);
  }
  return tableText(table, notes);
}

/** Rows of cells in columns (the header first), then the notes under the table. */
export function tableText(table: string[][], notes: string[]): string {
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const text = table.map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
  return notes.length === 0 ? text : `${text}\n${notes.join('\n')}\n`;
}

export function fleetJson(answer: FleetAnswer): string {
  return `${JSON.stringify({ status: NAMES[answer.code], code: answer.code, hosts: answer.rows }, null, 2)}\n`;
}
