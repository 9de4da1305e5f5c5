// `govern fleet`: every selected host's last run as a table and one monitoring check; with --watch,
// each run as it is published, until every host reports a commit (--until-commit) or time runs out.
import { formatDuration } from '../shared/duration.js';
import { UserError } from '../shared/errors.js';
import { terminalLine } from '../shared/terminal-text.js';
import { fleetAnswer, fleetJson, fleetRows, fleetTable, type HostRow } from './fleet-view.js';
import type { HostRun } from './host-record.js';
import { checkRun } from './published.js';
import type { NatsConnection } from '@nats-io/transport-node';
import { fleetProblem, readFleet, withFleet, type FleetState } from './read-fleet.js';
import { parseCondition, selectionHint, type Condition } from './selection.js';
import type { FleetSettings } from './settings.js';
import { deadlineIn } from './transient.js';
import { selectHosts } from './indexed-selection.js';
import { followRuns, startFleetWatch, type FleetWatch, type WatchEvent } from './watch.js';

export interface FleetStatusOptions {
  where: Condition[];
  json: boolean;
  maxAgeMs: number;
  /** Only hosts whose last run changed something and ended within this. */
  changedSinceMs?: number;
  watch: boolean;
  untilCommit?: string;
  timeoutMs?: number;
}

type Print = (text: string) => Promise<void>;

/** The exit status: the check's (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN), or the watch's. */
export function fleetStatus(settings: FleetSettings, o: FleetStatusOptions, out: Print): Promise<number> {
  return withFleet(settings, 'govern fleet', async (nc) => {
    const watching = o.watch ? await fleetProblem(nc.getServer(), startFleetWatch(nc, deadlineIn(settings.timeoutMs))) : undefined;
    const { runs, facts, rows } = await readRows(nc, settings, o, watching === undefined);
    const answer = fleetAnswer(rows, o.maxAgeMs, rows.length === 0 ? (o.changedSinceMs !== undefined ? ` whose last run changed something within ${formatDuration(o.changedSinceMs)}` : selectionHint(facts, o.where, Date.now())) : '');
    await out(o.json ? fleetJson(answer) : `${terminalLine(answer.line)}\n${fleetTable(answer.rows)}`);
    if (watching === undefined) return answer.code;
    // Every host's valid last run, selected or not: a host's run may come just before the facts that select it.
    const known = new Map([...runs].flatMap(([host, v]) => {
      const c = checkRun(host, v, Date.now());
      return c.ok ? [[host, c.value] as const] : [];
    }));
    return watch(o, watching, known, { hosts: new Set(answer.rows.map((r) => r.host)), where: o.where }, out);
  });
}

/**
 * The selected hosts' rows, through the fact index when it can answer (indexed-read.ts), else from
 * the whole fleet. A watch follows every host's runs, and a selection of none says what was likely
 * meant from every host's facts: both read the whole fleet.
 */
async function readRows(nc: NatsConnection, settings: FleetSettings, o: FleetStatusOptions, useIndex: boolean): Promise<FleetState & { rows: HostRow[] }> {
  const rowsOf = (s: FleetState) => fleetRows(s.runs, s.facts, o.where, Date.now(), o.maxAgeMs, o.changedSinceMs);
  // The rows and the hint look at the selection's facts alone (and check the rest as they come).
  const whole = () => readFleet(nc, settings, undefined, o.where.map((c) => c.fact));
  if (!useIndex) {
    const state = await whole();
    return { ...state, rows: rowsOf(state) };
  }
  const { state, selected } = await selectHosts(nc, o.where, settings.timeoutMs, rowsOf, whole);
  return { ...state, rows: selected };
}

/** `--where FACT=VALUE`, each; every problem at once. */
export function parseConditions(texts: string[]): Condition[] {
  const problems: string[] = [];
  const parsed: Condition[] = [];
  for (const text of texts) {
    try {
      parsed.push(parseCondition(text));
    } catch (e) {
      problems.push(`--where: ${(e as Error).message}`);
    }
  }
  if (problems.length > 0) throw new UserError(problems.map((message) => ({ message })));
  return parsed;
}

async function watch(o: FleetStatusOptions, watching: FleetWatch, runs: Map<string, HostRun>, selection: { hosts: Set<string>; where: Condition[] }, out: Print): Promise<number> {
  const printing: Promise<void>[] = [];
  const end = await followRuns(watching, runs, { ...selection, commit: o.untilCommit, timeoutMs: o.timeoutMs }, (e) => printing.push(out(`${eventLine(e)}\n`)));
  await Promise.all(printing);
  if (o.untilCommit === undefined) return 0;
  if (end.reverted.length > 0) {
    await out(`${terminalLine(`${o.untilCommit} reverted on ${end.reverted.join(', ')}: the staged rollout stops`)}\n`);
    return 2;
  }
  if (!end.reached) {
    await out(`${terminalLine(`not at ${o.untilCommit} after ${formatDuration(o.timeoutMs ?? 0)}: ${end.missing.join(', ')}`)}\n`);
    return end.failed.length > 0 ? 2 : 1;
  }
  if (end.failed.length > 0) {
    await out(`${terminalLine(`at ${o.untilCommit}, failed: ${end.failed.join(', ')}`)}\n`);
    return 2;
  }
  await out(`${terminalLine(`every selected host (${end.hosts.length}) ran ${o.untilCommit}`)}\n`);
  return 0;
}

function eventLine(e: WatchEvent): string {
  if (e.kind === 'run') return runLine(e.run);
  const now = new Date().toISOString();
  if (e.kind === 'invalid') return terminalLine(`${now} ${e.host} published what is not valid: ${e.problem}`);
  return terminalLine(e.kind === 'selected' ? `${now} ${e.host} selected: its published facts match` : `${now} ${e.host} no longer selected: its published facts do not match`);
}

function runLine(run: HostRun): string {
  const s = run.summary;
  const result = run.reverted !== undefined ? `reverted from ${run.reverted.from.slice(0, 12)}` : run.success ? 'ok' : 'failed';
  return terminalLine(`${run.ended_at} ${run.host} ${result} ${run.commit?.slice(0, 12) ?? '-'}: ${s.changed} changed, ${s.failed} failed of ${s.resources}`);
}
