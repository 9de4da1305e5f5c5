// A tree's health checks, after every real run (docs/rollout.md): each check of a kind govern test
// knows (checks/), tried once and again `retries` times with a pause between, each attempt within
// its `timeout`. A check that never passes makes the run failed.
import type { Check } from '../checks/kinds.js';
import { runCheck } from '../checks/run-check.js';
import type { HealthReport } from '../report/types.js';
import { formatSeconds } from '../shared/duration.js';
import { terminalLine } from '../shared/terminal-text.js';

/** The pause between two attempts at a check: a service just restarted gets a moment to listen. */
export const RETRY_PAUSE_MS = 1000;

export interface HealthResult {
  check: Check;
  passed: boolean;
  message: string;
  attempts: number;
  durationMs: number;
}

/** Every check in order, all of them also after a failure: the report names every failing one. */
export async function runHealth(checks: Check[], pauseMs = RETRY_PAUSE_MS): Promise<{ report: HealthReport; results: HealthResult[] }> {
  const results: HealthResult[] = [];
  for (const check of checks) {
    const started = Date.now();
    let attempts = 0;
    let outcome: { passed: boolean; message: string };
    for (;;) {
      attempts++;
      outcome = await runCheck(check, check.timeoutMs);
      if (outcome.passed || attempts > (check.retries ?? 0)) break;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    results.push({ check, ...outcome, attempts, durationMs: Date.now() - started });
  }
  const failed = results.filter((r) => !r.passed);
  return {
    report: { passed: results.length - failed.length, failed: failed.length, failures: failed.map(healthFailure) },
    results,
  };
}

/** `site.hcl:12: health check "nginx answers" failed: nothing listens on TCP port 80 (3 attempts)`. */
export function healthFailure(r: HealthResult): string {
  return `${r.check.where}: health check "${r.check.name}" failed: ${r.message}${r.attempts > 1 ? ` (${r.attempts} attempts)` : ''}`;
}

/** The run's text: a failed check always, with where it is declared; a passed one under -v. */
export function healthLines(results: HealthResult[], verbosity: number): string[] {
  return results
    .filter((r) => !r.passed || verbosity >= 1)
    .map((r) => `${(r.passed ? 'healthy' : 'failed').padEnd(9)} ${terminalLine(`health "${r.check.name}"${r.passed ? '' : ` (${r.check.where})`}  ${r.message}`)}  (${formatSeconds(r.durationMs)})`);
}
