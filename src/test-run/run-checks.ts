// The tree's checks run inside the sandbox after the second run (docs/test.md): each answers passed
// or failed with what it saw (src/checks/run-check.ts).
import { runCheck } from '../checks/run-check.js';
import type { Check } from './checks.js';
import type { CheckResult } from './types.js';

export async function runChecks(checks: Check[]): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const c of checks) {
    const { passed, message } = await runCheck(c);
    results.push({ name: c.name, where: c.where, kind: c.kind, passed, message });
  }
  return results;
}

