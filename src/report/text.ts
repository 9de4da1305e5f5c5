// The human report: every line of text govern run prints comes from here, one report entry at a
// time as the run goes (resources, notifications, invocations), then the summary. What is shown
// follows the view: -q failures only, the default every change, -v everything with logs, -vv the
// invocations too. What runners wrote (names, messages, logs, diffs) is shown escaped (terminalLine).
import { displayCall, type Call } from '../state/runner-call.js';
import { formatSeconds } from '../shared/duration.js';
import { terminalLine } from '../shared/terminal-text.js';
import { diffStyle, paint, type Style } from './colour.js';
import type { NotificationReport, ResourceReport, RunReport } from './types.js';

export interface TextView {
  /** -1 with -q, 0 by default, 1 with -v (unchanged resources, logs), 2 with -vv (invocations). */
  verbosity: number;
  /** Show diffs under changed resources (--no-diff turns them off). */
  diffs: boolean;
  color: boolean;
  noop: boolean;
}

const INDENT = ' '.repeat(10);

/**
 * A resource's lines. `notified`: a notification will reach it later in this run; if it changed
 * nothing itself, its notification line tells its story alone (a refresh_only command, say).
 */
export function resourceLines(r: ResourceReport, view: TextView, notified = false): string[] {
  const shown = r.status === 'failed' || (view.verbosity >= 0 && (r.status !== 'unchanged' || r.would_change === true)) || (view.verbosity >= 1 && !notified);
  if (!shown) return [];
  const status = (view.noop && r.status === 'changed') || r.would_change === true ? 'noop' : r.status;
  // A failure names where the resource is declared (the report's `where`), and its message once: the
  // runner's log repeats it (a kit runner's last `error:` line, a plain runner's last stderr line).
  const failed = r.status === 'failed';
  const lines = [head(status, failed ? `${r.ref} (${r.where})` : r.ref, r.message, r.duration_ms, view)];
  if (view.diffs && r.diff && (r.status === 'changed' || r.would_change === true)) lines.push(...diffLines(r.diff, view));
  if (view.verbosity >= 1 || failed) lines.push(...logLines(failed ? withoutMessage(r.log, r.message) : r.log));
  return lines;
}

/** A failure's log without the line that repeats its message, already on the line above. */
function withoutMessage(log: readonly string[], message: string): string[] {
  return log.filter((l) => l !== `error: ${message}` && l !== message);
}

export function notificationLines(n: NotificationReport, view: TextView): string[] {
  if (view.verbosity < 0 && n.status !== 'failed') return [];
  const status = n.status === 'sent' ? 'notified' : n.status;
  const lines = [head(status, `${n.to} <- ${n.signal} from ${n.from.join(', ')}`, n.message, n.duration_ms, view)];
  if (view.verbosity >= 1 || n.status === 'failed') lines.push(...logLines(n.status === 'failed' ? withoutMessage(n.log, n.message) : n.log));
  return lines;
}

/** -vv: the runner invocation about to run, shell-quoted as a user could paste it. */
export function invocationLines(call: Call, view: TextView): string[] {
  return view.verbosity >= 2 ? [`${'running'.padEnd(9)} ${terminalLine(displayCall(call, view.noop))}`] : [];
}

export function summaryLine(report: RunReport): string {
  const s = report.summary;
  const noop = report.noop;
  const parts = [
    `${s.resources} resource${s.resources === 1 ? '' : 's'}${s.excluded ? ` (${s.excluded} left out by tags)` : ''}`,
    `${s.changed} ${noop ? 'would change' : 'changed'}`,
    `${s.unchanged} unchanged`,
    `${s.failed} failed`,
    `${s.skipped} skipped`,
  ];
  const count = noop ? s.notifications_noop : s.notifications_sent;
  const notes =
    `${count} notification${count === 1 ? '' : 's'} ${noop ? 'would be sent' : 'sent'}` +
    (s.notifications_failed ? `, ${s.notifications_failed} failed` : '') +
    (s.notifications_skipped ? `, ${s.notifications_skipped} not sent` : '');
  const h = report.health;
  const health = h ? `; health ${h.passed} passed${h.failed ? `, ${h.failed} failed` : ''}` : '';
  return `${noop ? 'noop: ' : ''}${parts.join(', ')}; ${notes}${health}; ${formatSeconds(s.duration_ms)}`;
}

function head(status: string, what: string, message: string, durationMs: number, view: TextView): string {
  return `${paint(status.padEnd(9), status as Style, view.color)} ${terminalLine(what)}${message ? `  ${terminalLine(message)}` : ''}  (${formatSeconds(durationMs)})`;
}

function diffLines(diff: string, view: TextView): string[] {
  let inHunk = false;
  return diff.split('\n').map((raw) => {
    inHunk ||= raw.startsWith('@@');
    const style = diffStyle(raw, inHunk);
    const line = terminalLine(raw);
    return INDENT + (style ? paint(line, style, view.color) : line);
  });
}

function logLines(log: string[]): string[] {
  return log.map((l) => `${INDENT}| ${terminalLine(l)}`);
}
