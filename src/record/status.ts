// `govern status`: one line about the last real run, and the monitoring-plugins exit code, so it
// drops into Nagios, Icinga or a Checkmk local check as it is: 0 OK, 1 WARNING (older than the
// maximum age), 2 CRITICAL (failures, stopped before applying, or interrupted), 3 UNKNOWN (no run recorded).
// Performance data follows a `|`, as `label=value[unit];warn;crit;min;max`.
import { formatDuration, formatSeconds } from '../shared/duration.js';
import { reportErrorText } from '../report/error-text.js';
import type { LastPull } from './last-pull.js';
import type { LastRun } from './last-run.js';
import { defaultMaxHeldMs, heldMs, pullProblem } from './pull-status.js';

export const STATUS_NAMES = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'] as const;
export type StatusCode = 0 | 1 | 2 | 3;

export interface StatusAnswer {
  code: StatusCode;
  /** The whole line, without its newline. */
  line: string;
}

/** `maxHeldMs`: how long a staged rollout may hold the pulls before it is a WARNING (govern status --max-held; by default from the held commit's rollout.hcl). */
export function lastRunStatus(last: LastRun, nowMs: number, maxAgeMs: number, lastPull: LastPull = { kind: 'none' }, maxHeldMs = defaultMaxHeldMs(lastPull)): StatusAnswer {
  if (last.kind === 'none') return answer(3, `no run recorded in ${last.file}`);
  if (last.kind === 'unreadable') return answer(3, `cannot read ${last.file}: ${last.reason}`);
  const r = last.report;
  const s = r.summary;
  const finishedMs = Date.parse(r.started_at) + s.duration_ms;
  const ageMs = Math.max(0, nowMs - finishedMs);
  const problems: string[] = [];
  // An interrupted run (SIGINT, SIGTERM) has its signal as its error, and may have applied some.
  if (r.errors.length > 0) problems.push(`stopped${r.resources.length > 0 ? '' : ' before applying'}: ${reportErrorText(r.errors[0])}${r.errors.length > 1 ? ` (and ${r.errors.length - 1} more)` : ''}`);
  if (s.failed > 0) problems.push(`${s.failed} resource${s.failed === 1 ? '' : 's'} failed`);
  if (s.notifications_failed > 0) problems.push(`${s.notifications_failed} notification${s.notifications_failed === 1 ? '' : 's'} failed`);
  if (r.health && r.health.failed > 0) problems.push(`${r.health.failed} health check${r.health.failed === 1 ? '' : 's'} failed (${r.health.failures[0]}${r.health.failed > 1 ? ', ...' : ''})`);
  // Until a newer commit succeeds, every run of the good commit carries the return (run/revert.ts).
  if (r.reverted) problems.unshift(`reverted from ${r.reverted.from.slice(0, 12)} (${r.reverted.reason}) to ${r.reverted.to.slice(0, 12)}`);
  const stale = ageMs > maxAgeMs;
  if (stale) problems.push(`the last run is older than ${formatDuration(maxAgeMs)}`);
  let code: StatusCode = problems.length > (stale ? 1 : 0) ? 2 : stale ? 1 : 0;
  const pulled = pullProblem(lastPull, nowMs, maxHeldMs);
  if (pulled) {
    problems.unshift(pulled.text);
    code = Math.max(code, pulled.code) as StatusCode;
  }
  // Left-behind resources are worth a look, not an alarm: counted after the exit code is decided.
  const dropped = r.no_longer_managed ?? [];
  if (dropped.length > 0) problems.push(`${dropped.length} no longer managed (${dropped.join(', ')})`);
  const tree = `${r.state}${r.commit ? ` at ${r.commit.slice(0, 12)}` : ''}`;
  const details =
    `last run ${formatDuration(ageMs)} ago (${new Date(finishedMs).toISOString()}), took ${formatSeconds(s.duration_ms)}: ` +
    `${s.changed} changed, ${s.failed} failed, ${s.skipped} skipped of ${s.resources}; ${tree}`;
  const perf = [
    `age=${Math.round(ageMs / 1000)}s;${Math.round(maxAgeMs / 1000)};;0`,
    `duration=${(s.duration_ms / 1000).toFixed(3)}s;;;0`,
    `resources=${s.resources};;;0`,
    `changed=${s.changed};;;0`,
    `failed=${s.failed};;0;0`,
    `skipped=${s.skipped};;;0`,
    `notifications_failed=${s.notifications_failed};;0;0`,
    `errors=${r.errors.length};;0;0`,
    `no_longer_managed=${dropped.length};;;0`,
    `health_failed=${r.health?.failed ?? 0};;0;0`,
    `reverted=${r.reverted ? 1 : 0};;0;0`,
    `pull_held=${Math.round((heldMs(lastPull, nowMs) ?? 0) / 1000)}s;${Math.round(maxHeldMs / 1000)};;0`,
  ];
  return answer(code, [...problems, details].join('; '), perf);
}

function answer(code: StatusCode, text: string, perf: string[] = []): StatusAnswer {
  // The text must not carry a `|` of its own: it would start the performance data.
  const line = `GOVERN ${STATUS_NAMES[code]} - ${text.replace(/\|/g, '/').replace(/\n/g, ' ')}`;
  return { code, line: perf.length > 0 ? `${line} | ${perf.join(' ')}` : line };
}
