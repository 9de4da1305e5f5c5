// What became of publishing to the fleet, kept beside the last-run record (VAR_DIR/fleet-publish.json)
// for `govern status`, and as metrics for node_exporter in a file of its own next to the run's
// metrics file (govern.prom -> govern-fleet.prom), so that the two records stay independent.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-file.js';
import type { PublishOutcome } from './publish.js';

export const PUBLISH_FILE = 'fleet-publish.json';

export interface PublishRecord {
  /** When the last attempt ended, ISO 8601. */
  at: string;
  ok: boolean;
  error?: string;
  ms: number;
  /** Published through the host's listener, or over a connection of the run's own. */
  via?: 'listener' | 'own';
  /** Failed attempts since the var directory was made. */
  failures_total: number;
  last_success_at?: string;
}

export function readPublishRecord(varDir: string): PublishRecord | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(varDir, PUBLISH_FILE), 'utf8')) as PublishRecord;
    return typeof value.ok === 'boolean' && typeof value.failures_total === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function nextPublishRecord(previous: PublishRecord | undefined, outcome: PublishOutcome, now: Date): PublishRecord {
  const at = now.toISOString();
  return {
    at,
    ok: outcome.ok,
    ...(outcome.ok ? {} : { error: outcome.error }),
    ms: outcome.ms,
    ...(outcome.ok && outcome.via !== undefined ? { via: outcome.via } : {}),
    failures_total: (previous?.failures_total ?? 0) + (outcome.ok ? 0 : 1),
    ...(outcome.ok ? { last_success_at: at } : previous?.last_success_at ? { last_success_at: previous.last_success_at } : {}),
  };
}

export function fleetMetricsFile(runMetricsFile: string): string {
  return runMetricsFile.replace(/(\.prom)?$/, '-fleet.prom');
}

export function fleetMetricsText(r: PublishRecord): string {
  const lines = [
    '# HELP govern_fleet_publish_failures_total Runs whose summary and facts could not be published to the fleet.',
    '# TYPE govern_fleet_publish_failures_total counter',
    `govern_fleet_publish_failures_total ${r.failures_total}`,
    '# HELP govern_fleet_last_publish_success 1 if the last run was published to the fleet, else 0.',
    '# TYPE govern_fleet_last_publish_success gauge',
    `govern_fleet_last_publish_success ${r.ok ? 1 : 0}`,
    '# HELP govern_fleet_last_publish_duration_seconds How long publishing the last run took (or was given before it was abandoned).',
    '# TYPE govern_fleet_last_publish_duration_seconds gauge',
    `govern_fleet_last_publish_duration_seconds ${r.ms / 1000}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Writes the record, and the metrics when a metrics file is configured; returns what could not be written. */
export function writePublishRecord(varDir: string, record: PublishRecord, runMetricsFile?: string): string[] {
  const problems: string[] = [];
  const attempt = (file: string, text: string) => {
    try {
      writeFileAtomic(file, text, 0o644);
    } catch (e) {
      problems.push(`cannot write ${file}: ${(e as Error).message}`);
    }
  };
  attempt(path.join(varDir, PUBLISH_FILE), `${JSON.stringify(record, null, 2)}\n`);
  if (runMetricsFile !== undefined) attempt(fleetMetricsFile(runMetricsFile), fleetMetricsText(record));
  return problems;
}
