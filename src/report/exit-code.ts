// Exit codes (README.md, "Commands"): 0 success, 1 any failure. With --detailed-exitcodes, Puppet's convention:
// 0 nothing changed, 2 changes (in noop: would change), 4 failures, 6 changes and failures.
// Errors before anything is applied (bad state files, cycles...) exit 1 either way.
import type { HealthReport, RunReport, RunSummary } from './types.js';

/** A failed health check is a failure of the run (docs/rollout.md). */
export function exitCode(summary: RunSummary, detailed: boolean, health?: HealthReport): number {
  const failures = summary.failed + summary.notifications_failed + (health?.failed ?? 0) > 0;
  const changes = summary.changed + summary.notifications_sent > 0;
  if (!detailed) return failures ? 1 : 0;
  return (changes ? 2 : 0) + (failures ? 4 : 0);
}

/** The run applied everything, and its health checks passed: what the metrics, the fleet and the last good commit call a success. */
export function runSucceeded(r: Pick<RunReport, 'errors' | 'summary' | 'health'>): boolean {
  return r.errors.length === 0 && r.summary.failed === 0 && r.summary.notifications_failed === 0 && (r.health?.failed ?? 0) === 0;
}
