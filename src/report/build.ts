// The one place the run report is built: an entry per resource and notification as the run goes,
// and the whole report at its end (or when the run stops before anything is applied). Text and JSON
// are rendered from what is built here (report/text.ts, report/json.ts).
import type { CallResult } from '../state/runner-call.js';
import { formatLocation, UserError } from '../shared/errors.js';
import { masker } from '../shared/sensitive.js';
import type { Resource } from '../state/resource.js';
import type { PhaseTimings } from './timing.js';
import type { NotificationReport, ReportError, ResourceReport, RunMeta, RunReport, RunSummary } from './types.js';

/**
 * `runNoop`: the whole run is in noop mode, where `changed` means "would change" for every resource.
 * `heldAfter`: in a real run, the resources with noop = true whose changes held this one back too.
 */
export function resourceReport(resource: Resource, result: CallResult, runNoop = false, heldAfter: readonly string[] = []): ResourceReport {
  const shown = shownResult(resource, result);
  // A resource with noop = true in a real run, or one that comes after its changes, changed nothing:
  // it says what it would have changed.
  const held = (resource.noop === true || heldAfter.length > 0) && !runNoop && result.ok;
  const why = held && result.changed && resource.noop !== true ? `not applied: it comes after ${heldRefs(heldAfter)}, held back by noop = true` : '';
  return {
    ref: resource.ref,
    status: !result.ok ? 'failed' : result.changed && !held ? 'changed' : 'unchanged',
    ...(held ? { would_change: result.changed } : {}),
    message: [shown.message, why].filter((part) => part !== '').join('; '),
    duration_ms: result.durationMs,
    log: shown.log,
    ...(shown.diff ? { diff: shown.diff } : {}),
    where: formatLocation(resource.at),
  };
}

/** "user:app", "user:app and group:app", "user:app, group:app and 3 more". */
function heldRefs(refs: readonly string[]): string {
  const named = refs.slice(0, 2);
  if (refs.length > 2) return `${named.join(', ')} and ${refs.length - 2} more`;
  return named.join(' and ');
}

/** What the report may show of a runner's answer: a sensitive resource's values hidden, and its diff left out. */
function shownResult(resource: Resource, result: CallResult): Pick<CallResult, 'message' | 'log' | 'diff'> {
  const mask = masker(resource);
  return {
    message: mask(result.message),
    log: result.log.map(mask),
    diff: resource.sensitive || result.diff === undefined ? undefined : mask(result.diff),
  };
}

/** A resource not applied because something it depends on failed (`cause`, or what skipped that). */
export function skippedResource(resource: Resource, cause: string): ResourceReport {
  return { ref: resource.ref, status: 'skipped', message: `skipped: depends on ${cause}, which failed`, duration_ms: 0, log: [], where: formatLocation(resource.at) };
}

/** A signal to send once: to a receiver, from the notifiers that changed and asked for it. */
export interface PendingNotification {
  from: string[];
  to: string;
  signal: string;
}

/** `receiver`: the resource the signal went to, whose values its runner's answer may hold. */
export function sentNotification(n: PendingNotification, result: CallResult, receiver: Resource): NotificationReport {
  const shown = shownResult(receiver, result);
  return { ...n, status: result.ok ? 'sent' : 'failed', message: shown.message, duration_ms: result.durationMs, log: shown.log };
}

export function unsentNotification(n: PendingNotification, status: 'skipped' | 'noop', message: string): NotificationReport {
  return { ...n, status, message, duration_ms: 0, log: [] };
}

export interface Applied {
  resources: ResourceReport[];
  notifications: NotificationReport[];
  /** Resources of the tree left out by tags. */
  excluded: number;
}

export function runReport(meta: RunMeta, applied: Applied, timings: PhaseTimings, durationMs: number): RunReport {
  const { resources, notifications } = applied;
  return { ...meta, errors: [], resources, notifications, summary: summarize(applied, durationMs), timings };
}

/**
 * The report of a run govern was interrupted in (SIGINT, SIGTERM): what was applied, the resources
 * under way failed, and the interruption as the run's error. `resources` of the tree are those
 * that had started; the rest were not applied.
 */
export function interruptedReport(meta: RunMeta, applied: Applied, underway: Resource[], signal: string, timings: PhaseTimings, durationMs: number): RunReport {
  const message = `interrupted by ${signal}`;
  const stopped = underway.map((resource) => resourceReport(resource, { ok: false, changed: false, message: `${message} while being applied`, log: [], durationMs: 0 }));
  const all: Applied = { ...applied, resources: [...applied.resources, ...stopped] };
  return { ...meta, errors: [{ message }], resources: all.resources, notifications: all.notifications, summary: summarize(all, durationMs), timings };
}

/** The report of a run that stopped before anything was applied. */
export function errorReport(meta: RunMeta, error: unknown, timings: PhaseTimings, durationMs: number): RunReport {
  const nothing: Applied = { resources: [], notifications: [], excluded: 0 };
  return { ...meta, errors: reportErrors(error), resources: [], notifications: [], summary: summarize(nothing, durationMs), timings };
}

function reportErrors(error: unknown): ReportError[] {
  if (!(error instanceof UserError)) return [{ message: `internal error: ${(error as Error)?.message ?? error}` }];
  return error.problems.map((p) => ({
    message: p.message,
    ...(p.file !== undefined ? { file: p.file } : {}),
    ...(p.line !== undefined ? { line: p.line } : {}),
    ...(p.column !== undefined ? { column: p.column } : {}),
    ...(p.renderedLine !== undefined ? { rendered_line: p.renderedLine } : {}),
  }));
}

function summarize(applied: Applied, durationMs: number): RunSummary {
  const count = (status: string) => applied.resources.filter((r) => r.status === status).length;
  const countN = (status: string) => applied.notifications.filter((n) => n.status === status).length;
  return {
    resources: applied.resources.length,
    changed: count('changed'),
    unchanged: count('unchanged'),
    failed: count('failed'),
    skipped: count('skipped'),
    excluded: applied.excluded,
    notifications_sent: countN('sent'),
    notifications_noop: countN('noop'),
    notifications_failed: countN('failed'),
    notifications_skipped: countN('skipped'),
    duration_ms: durationMs,
  };
}
