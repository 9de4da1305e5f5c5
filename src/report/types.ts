// The run report: what `govern run --json` prints (documented in docs/report.md).

export type ResourceStatus = 'changed' | 'unchanged' | 'failed' | 'skipped';
export type NotificationStatus = 'sent' | 'failed' | 'skipped' | 'noop';

export interface ResourceReport {
  ref: string;
  status: ResourceStatus;
  message: string;
  duration_ms: number;
  log: string[];
  /** A unified diff of what the runner changed (or would change), when it gave one. */
  diff?: string;
  /** Where the resource is declared. */
  where: string;
}

export interface NotificationReport {
  /** The notifiers that changed and asked for this signal (it is sent once). */
  from: string[];
  to: string;
  signal: string;
  status: NotificationStatus;
  message: string;
  duration_ms: number;
  log: string[];
}

export interface RunSummary {
  resources: number;
  changed: number;
  unchanged: number;
  failed: number;
  skipped: number;
  notifications_sent: number;
  /** In noop mode: notifications that would have been sent. */
  notifications_noop: number;
  notifications_failed: number;
  notifications_skipped: number;
  duration_ms: number;
}

export interface RunReport {
  noop: boolean;
  resources: ResourceReport[];
  notifications: NotificationReport[];
  summary: RunSummary;
}

export function summarize(resources: ResourceReport[], notifications: NotificationReport[], durationMs: number): RunSummary {
  const count = (status: string) => resources.filter((r) => r.status === status).length;
  const countN = (status: string) => notifications.filter((n) => n.status === status).length;
  return {
    resources: resources.length,
    changed: count('changed'),
    unchanged: count('unchanged'),
    failed: count('failed'),
    skipped: count('skipped'),
    notifications_sent: countN('sent'),
    notifications_noop: countN('noop'),
    notifications_failed: countN('failed'),
    notifications_skipped: countN('skipped'),
    duration_ms: durationMs,
  };
}
