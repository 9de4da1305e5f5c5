// Exit codes (README.md, "Commands"): 0 success, 1 any failure. With --detailed-exitcodes, Puppet's convention:
// 0 nothing changed, 2 changes (in noop: would change), 4 failures, 6 changes and failures.
// Errors before anything is applied (bad state files, cycles...) exit 1 either way.
import type { RunSummary } from './types.js';

export function exitCode(summary: RunSummary, detailed: boolean): number {
  const failures = summary.failed + summary.notifications_failed > 0;
  const changes = summary.changed + summary.notifications_sent > 0;
  if (!detailed) return failures ? 1 : 0;
  return (changes ? 2 : 0) + (failures ? 4 : 0);
}
