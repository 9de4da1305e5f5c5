// The alerting rules and the Grafana dashboard in monitoring/: the rules pass `promtool check rules`
// and fire as promtool's unit tests (govern-rules.promtool.yml) expect; every query of the dashboard
// is valid PromQL (checked by promtool as a recording rule); and every metric either one names is
// one govern writes.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fleetMetricsText } from '../../src/fleet/publish-record.js';
import { metricsText } from '../../src/record/metrics.js';
import type { RunReport } from '../../src/report/types.js';
import { runCommand } from '../../src/shared/process.js';
import { ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const RULES = path.join(ROOT, 'monitoring', 'govern-rules.yml');
const DASHBOARD = path.join(ROOT, 'monitoring', 'govern-dashboard.json');

async function promtool(args: string[], cwd?: string) {
  const r = await runCommand('promtool', args, { cwd, timeoutMs: 60_000 });
  if (r.spawnError) throw new Error('promtool is missing: run scripts/setup-debian test');
  return r;
}

interface Panel {
  id: number;
  title: string;
  targets: { expr: string }[];
}

const dashboard = () => JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { uid: string; panels: Panel[]; templating: { list: { name: string }[] } };

/** The names of the metrics govern writes: the run's metrics file and the fleet's. */
function writtenMetrics(): Set<string> {
  const report = {
    host: 'h',
    govern_version: '0.1.0',
    started_at: new Date().toISOString(),
    state: '/s',
    noop: false,
    errors: [],
    resources: [],
    notifications: [],
    timings: {},
    summary: { resources: 0, changed: 0, unchanged: 0, failed: 0, skipped: 0, excluded: 0, notifications_sent: 0, notifications_noop: 0, notifications_failed: 0, notifications_skipped: 0, duration_ms: 1 },
  } as unknown as RunReport;
  const text = metricsText(report) + fleetMetricsText({ at: new Date().toISOString(), ok: true, ms: 1, failures_total: 0 });
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
}

const metricNames = (expr: string) => [...expr.matchAll(/\bgovern_[a-z_]+/g)].map((m) => m[0]);

describe('monitoring: Prometheus rules and the Grafana dashboard #once', () => {
  it('promtool check rules accepts the rules file', async () => {
    const r = await promtool(['check', 'rules', RULES]);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.include('SUCCESS: 3 rules found');
  });

  it('the alerts fire when promtool\'s unit tests say: a host that stopped, a failed run, publishing that keeps failing', async () => {
    const r = await promtool(['test', 'rules', 'govern-rules.promtool.yml'], path.join(ROOT, 'test', 'monitoring'));
    expect(r.code, r.stdout + r.stderr).to.equal(0);
  });

  it('every query of the dashboard is valid PromQL', async () => {
    const d = dashboard();
    expect(new Set(d.panels.map((p) => p.id)).size).to.equal(d.panels.length);
    expect(d.templating.list.map((v) => v.name)).to.include.members(['datasource', 'instance', 'max_age']);
    const exprs = d.panels.flatMap((p) => p.targets.map((t) => t.expr));
    const rules = exprs.map((expr, i) => `      - record: dashboard_query_${i}\n        expr: ${JSON.stringify(expr.replace(/\$instance/g, '.*').replace(/\$max_age/g, '3600'))}\n`);
    const file = writeFile(path.join(tempDir(), 'dashboard-queries.yml'), `groups:\n  - name: dashboard\n    rules:\n${rules.join('')}`);
    const r = await promtool(['check', 'rules', file]);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
  });

  it('the rules and the dashboard name only metrics govern writes', () => {
    const written = writtenMetrics();
    const used = [...metricNames(fs.readFileSync(RULES, 'utf8')), ...dashboard().panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr)))];
    expect(used.length).to.be.above(5);
    for (const name of used) expect([...written], name).to.include(name);
  });
});
