// The run report: what `govern run --json` prints, documented field by field (with a JSON Schema)
// in docs/report.md.
import type { PhaseTimings } from './timing.js';

export type ResourceStatus = 'changed' | 'unchanged' | 'failed' | 'skipped';
export type NotificationStatus = 'sent' | 'failed' | 'skipped' | 'noop';

export interface ResourceReport {
  ref: string;
  status: ResourceStatus;
  message: string;
  duration_ms: number;
  log: string[];
  /** A unified diff of what changed (or would change), when the runner gave one. */
  diff?: string;
  /** Where the resource is declared: `file:line`. */
  where: string;
  /** Called in noop mode in a real run (`noop = true`, or after a change one held back): it changed nothing, and would have changed this much. */
  would_change?: boolean;
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
  /** Resources of the tree left out by --tags or --skip-tags (not in `resources`). */
  excluded: number;
  notifications_sent: number;
  /** In noop mode: notifications that would have been sent. */
  notifications_noop: number;
  notifications_failed: number;
  notifications_skipped: number;
  /** The whole run, from the start of the govern process. */
  duration_ms: number;
}

/** A problem that stopped the run before anything was applied, or the signal that interrupted it. */
export interface ReportError {
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** When no source line is known: the line of the rendered text. */
  rendered_line?: number;
}

/** Who ran what, and when. */
export interface RunMeta {
  /** The host's fully qualified name (its `fqdn` fact). */
  host: string;
  govern_version: string;
  /** ISO 8601, UTC. */
  started_at: string;
  /** The state tree or file, as given. */
  state: string;
  /** The commit the state tree is at, when `govern pull` made it. */
  commit?: string;
  noop: boolean;
  /** The run returned the tree to its last good commit (govern pull --revert-on-failure): full commit hashes, and why. */
  reverted?: RevertReport;
}

export interface RunReport extends RunMeta {
  /** Empty unless the run stopped before anything was applied, or was interrupted (SIGINT, SIGTERM). */
  errors: ReportError[];
  resources: ResourceReport[];
  notifications: NotificationReport[];
  summary: RunSummary;
  timings: PhaseTimings;
  /** Resources the tree declared at an earlier real run and no longer does, left on the host: until removed or forgotten. */
  no_longer_managed?: string[];
  /** The tree's health checks, run after the run (docs/rollout.md); absent when none ran (noop, --no-health, none declared). */
  health?: HealthReport;
}

export interface HealthReport {
  passed: number;
  failed: number;
  /** One line a failed check: `site.hcl:12: health check "NAME" failed: MESSAGE`. */
  failures: string[];
}

export interface RevertReport {
  /** The commit whose run or health checks failed, now quarantined. */
  from: string;
  /** The last good commit, applied again by this run. */
  to: string;
  /** Why: the first failure of the reverted commit's run. */
  reason: string;
  /** Only in the report of the return's own run: what the failed run did (its own report is not printed). */
  failed_run?: { summary: RunSummary; health?: HealthReport };
}
