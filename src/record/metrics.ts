// The last real run in Prometheus's text exposition format, for node_exporter's textfile collector
// (`--metrics-file DIR/govern.prom`, DIR its --collector.textfile.directory): when it ended, how
// long it took, whether it succeeded, resources and notifications by status.
import { runSucceeded } from '../report/exit-code.js';
import type { RunReport } from '../report/types.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';

export function metricsText(r: RunReport): string {
  const s = r.summary;
  const endedSeconds = (Date.parse(r.started_at) + s.duration_ms) / 1000;
  const success = runSucceeded(r);
  const lines: string[] = [];
  const metric = (name: string, help: string, samples: [Record<string, string>, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
    for (const [labels, value] of samples) lines.push(`${name}${formatLabels(labels)} ${value}`);
  };
  metric('govern_last_run_timestamp_seconds', 'When the last run of govern (not --noop) ended, in seconds since the epoch.', [[{}, endedSeconds]]);
  metric('govern_last_run_duration_seconds', 'How long the last run took.', [[{}, s.duration_ms / 1000]]);
  metric('govern_last_run_success', '1 if the last run applied everything without a failure and its health checks passed, else 0.', [[{}, success ? 1 : 0]]);
  metric('govern_last_run_errors', 'Problems that stopped the last run before it applied anything.', [[{}, r.errors.length]]);
  metric('govern_last_run_resources', 'Resources of the last run by status.', [
    [{ status: 'changed' }, s.changed],
    [{ status: 'unchanged' }, s.unchanged],
    [{ status: 'failed' }, s.failed],
    [{ status: 'skipped' }, s.skipped],
    [{ status: 'excluded' }, s.excluded],
  ]);
  metric('govern_last_run_notifications', 'Notifications of the last run by status.', [
    [{ status: 'sent' }, s.notifications_sent],
    [{ status: 'failed' }, s.notifications_failed],
    [{ status: 'skipped' }, s.notifications_skipped],
  ]);
  metric('govern_last_run_no_longer_managed', 'Resources the state tree no longer declares, left on the host until removed or forgotten (govern run --forget).', [
    [{}, r.no_longer_managed?.length ?? 0],
  ]);
  metric('govern_last_run_health_checks', 'Health checks of the last run by result (none: no health block ran).', [
    [{ result: 'passed' }, r.health?.passed ?? 0],
    [{ result: 'failed' }, r.health?.failed ?? 0],
  ]);
  metric('govern_last_run_reverted', '1 if the last run returned the tree to its last good commit (govern pull --revert-on-failure), else 0.', [[{}, r.reverted ? 1 : 0]]);
  metric('govern_last_run_info', 'The last run: govern version, state tree, and its commit when it came from govern pull.', [
    [{ version: r.govern_version, state: r.state, commit: r.commit ?? '' }, 1],
  ]);
  return `${lines.join('\n')}\n`;
}

function formatLabels(labels: Record<string, string>): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return pairs.length > 0 ? `{${pairs.join(',')}}` : '';
}

/** Readable by all (0644): node_exporter runs as its own user. */
export function writeMetrics(file: string, report: RunReport): void {
  try {
    writeFileAtomic(file, metricsText(report), 0o644);
  } catch (e) {
    throw new UserError(`cannot write the metrics file ${file}: ${(e as Error).message}`);
  }
}
