// The human report: a line per resource as it completes, then a summary.
import { formatSeconds } from '../shared/duration.js';
import type { NotificationReport, ResourceReport, RunSummary } from './types.js';

export function resourceLine(r: ResourceReport, noop: boolean): string {
  const status = noop && r.status === 'changed' ? 'noop' : r.status;
  return `${status.padEnd(9)} ${r.ref}${r.message ? `  ${r.message}` : ''}  (${formatSeconds(r.duration_ms)})\n`;
}

export function notificationLine(n: NotificationReport): string {
  const status = n.status === 'sent' ? 'notified' : n.status === 'noop' ? 'noop' : n.status;
  return `${status.padEnd(9)} ${n.to} <- ${n.signal} from ${n.from.join(', ')}${n.message ? `  ${n.message}` : ''}  (${formatSeconds(n.duration_ms)})\n`;
}

export function logLines(log: string[]): string {
  return log.map((l) => `          | ${l}\n`).join('');
}

export function summaryLine(s: RunSummary, noop: boolean): string {
  const parts = [
    `${s.resources} resource${s.resources === 1 ? '' : 's'}`,
    `${s.changed} ${noop ? 'would change' : 'changed'}`,
    `${s.unchanged} unchanged`,
    `${s.failed} failed`,
    `${s.skipped} skipped`,
  ];
  const count = noop ? s.notifications_noop : s.notifications_sent;
  const notes = `${count} notification${count === 1 ? '' : 's'} ${noop ? 'would be sent' : 'sent'}` +
    (s.notifications_failed ? `, ${s.notifications_failed} failed` : '') +
    (s.notifications_skipped ? `, ${s.notifications_skipped} not sent` : '');
  return `${noop ? 'noop: ' : ''}${parts.join(', ')}; ${notes}; ${formatSeconds(s.duration_ms)}\n`;
}
