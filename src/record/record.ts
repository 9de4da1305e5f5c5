// After a run that was not --noop: its report as the last run (last-run.ts), and its metrics when
// a metrics file is configured (metrics.ts). Both are attempted; every failure is reported at once.
import type { RunReport } from '../report/types.js';
import { UserError, type Problem } from '../shared/errors.js';
import { writeLastRun } from './last-run.js';
import { writeMetrics } from './metrics.js';

export interface RecordTargets {
  varDir: string;
  metricsFile?: string;
}

export function recordRun(report: RunReport, to: RecordTargets): void {
  const problems: Problem[] = [];
  const attempt = (write: () => void) => {
    try {
      write();
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...e.problems);
    }
  };
  attempt(() => writeLastRun(to.varDir, report));
  if (to.metricsFile !== undefined) attempt(() => writeMetrics(to.metricsFile!, report));
  if (problems.length > 0) throw new UserError(problems);
}
