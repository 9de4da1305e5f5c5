// `govern fleet`: every host's last run, from the fleet's NATS buckets (docs/fleet.md), as a table
// and as one monitoring check; `--watch` follows a rollout as hosts report. `govern fleet run` asks
// hosts to run now (fleet-run.ts).
import { writeHostKey } from '../../fleet/host-key.js';
import { fleetAnswer, fleetJson, fleetRows, fleetTable } from '../../fleet/fleet-view.js';
import type { HostRun } from '../../fleet/host-record.js';
import { checkRun } from '../../fleet/published.js';
import { readFleet, withFleet } from '../../fleet/read-fleet.js';
import { parseCondition, selectionHint, type Condition } from '../../fleet/selection.js';
import { followRuns, startFleetWatch, type FleetWatch, type WatchEvent } from '../../fleet/watch.js';
import { formatDuration } from '../../shared/duration.js';
import { UserError } from '../../shared/errors.js';
import { terminalLine } from '../../shared/terminal-text.js';
import { described } from '../command-names.js';
import { fleetRun } from './fleet-run.js';
import { defineCommand } from '../command.js';
import { out } from '../../output/writers.js';
import { helpOptions } from '../common-options.js';
import { fleetConnectionOptions, fleetSettings } from '../fleet-options.js';
import { optionTable, type Options } from '../options.js';

const options = optionTable([
  { name: 'where', kind: 'texts', placeholder: 'FACT=VALUE', help: 'only hosts whose published fact FACT is VALUE (repeat: all must hold)' },
  { name: 'json', kind: 'flag', help: 'print the hosts as JSON' },
  { name: 'max-age', kind: 'duration', placeholder: 'DURATION', env: 'GOVERN_MAX_AGE', default: '1h', help: 'warn about a host whose last run ended longer ago than this' },
  { name: 'watch', kind: 'flag', help: 'then print each selected host\'s run as it is published (hosts whose facts come to match join)' },
  { name: 'until-commit', kind: 'text', placeholder: 'COMMIT', help: 'with --watch: stop when every selected host has reported a run at COMMIT (or a prefix of it)' },
  { name: 'timeout', kind: 'duration', placeholder: 'DURATION', help: 'with --watch: stop after this long; with run: the most a batch may take (default 30m)' },
  { name: 'batch', kind: 'text', placeholder: 'N|N%', help: 'with run: ask this many hosts (or this share of them) at a time; default all at once' },
  { name: 'noop', short: 'n', kind: 'flag', help: 'with run: print the batches, and ask no host' },
  { name: 'sign-key', kind: 'text', placeholder: 'FILE', env: 'GOVERN_FLEET_SIGN_KEY', help: "with run: sign each request with the user nkey seed in FILE (default: --fleet-creds' seed), as listeners require" },
  ...fleetConnectionOptions,
  ...helpOptions,
]);

type FleetOptions = Options<typeof options>;

export const fleetCommand = defineCommand({
  ...described('fleet'),
  details:
    'Reads the runs and facts every host published after its last run (docs/fleet.md). The first line is\n' +
    'a monitoring check of the selected hosts, with performance data after a "|"; the table follows.\n' +
    'Exit status: 0 OK; 1 WARNING, a host has not reported within --max-age; 2 CRITICAL, a host failed\n' +
    'its last run; 3 UNKNOWN, no host is selected or the fleet cannot be read.\n' +
    'With --watch --until-commit: 0 when every selected host ran the commit successfully, 2 when one\n' +
    'failed at it, 1 when --timeout came first. A host whose facts, published during the watch, come\n' +
    'to match --where joins the selection; one whose facts no longer match leaves it.\n' +
    'govern fleet run --where FACT=VALUE... asks the selected hosts (their govern listen) to run now,\n' +
    '--batch at a time, each batch after the previous one reported success; it stops at the first\n' +
    'failure. Exit status: 0 every host ran successfully, 2 one failed, 3 no host is selected.\n' +
    'govern fleet key FILE writes a new NATS user key (its seed, mode 0600) for --fleet-creds and prints\n' +
    "its public key for the server's configuration.",
  // A check answers UNKNOWN (3) when it cannot answer, with its status line on stdout as a monitoring
  // plugin's; `fleet run` and `fleet key` are not checks: a usage error is 1, as for every other command.
  failureExit: (line) => (line.operands.length === 0 ? 3 : 1),
  async errorDocument(e, line) {
    if (line.operands.length > 0 || !(e instanceof UserError)) return undefined;
    const text = e.message.split('\n').join('; ');
    if (line.given.has('json')) return `${JSON.stringify({ status: 'UNKNOWN', code: 3, error: text }, null, 2)}\n`;
    return `GOVERN FLEET UNKNOWN - ${terminalLine(text).replace(/\|/g, '/')}\n`;
  },
  options,
  async run(o, operands) {
    if (operands[0] === 'key') {
      if (operands.length !== 2) throw new UserError('usage: govern fleet key FILE');
      await out(`${writeHostKey(operands[1])}\n`);
      return 0;
    }
    const asRun = operands.length === 1 && operands[0] === 'run';
    if (operands.length > 0 && !asRun) throw new UserError(`govern fleet takes no operand but "run" or "key FILE" (usage: ${this.usage})`);
    const settings = fleetSettings(o);
    if (settings === undefined) throw new UserError('no fleet is configured: give --fleet-url or set GOVERN_FLEET_URL');
    if (asRun) {
      if (o.watch || o.json || o.untilCommit !== undefined) throw new UserError('--watch, --json and --until-commit do not go with govern fleet run');
      return fleetRun(settings, { where: conditions(o.where), batch: o.batch, noop: o.noop, batchTimeoutMs: o.timeout ?? 30 * 60_000, signKey: o.signKey ?? settings.credsFile });
    }
    if (o.batch !== undefined || o.noop) throw new UserError('--batch and --noop go with govern fleet run');
    if (!o.watch && (o.untilCommit !== undefined || o.timeout !== undefined)) throw new UserError('--until-commit and --timeout go with --watch');
    const where = conditions(o.where);
    return withFleet(settings, 'govern fleet', async (nc) => {
      const watching = o.watch ? await startFleetWatch(nc) : undefined;
      const { runs, facts } = await readFleet(nc, settings.timeoutMs);
      const rows = fleetRows(runs, facts, where, Date.now(), o.maxAge);
      const answer = fleetAnswer(rows, o.maxAge, rows.length === 0 ? selectionHint(facts, where, Date.now()) : '');
      await out(o.json ? fleetJson(answer) : `${terminalLine(answer.line)}\n${fleetTable(answer.rows)}`);
      if (watching === undefined) return answer.code;
      // Every host's valid last run, selected or not: a host's run may come just before the facts that select it.
      const known = new Map([...runs].flatMap(([host, v]) => {
        const c = checkRun(host, v, Date.now());
        return c.ok ? [[host, c.value] as const] : [];
      }));
      return watch(o, watching, known, { hosts: new Set(answer.rows.map((r) => r.host)), where });
    });
  },
});

export function conditions(texts: string[]): Condition[] {
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

async function watch(o: FleetOptions, watching: FleetWatch, runs: Map<string, HostRun>, selection: { hosts: Set<string>; where: Condition[] }): Promise<number> {
  const printing: Promise<void>[] = [];
  const end = await followRuns(watching, runs, { ...selection, commit: o.untilCommit, timeoutMs: o.timeout }, (e) => printing.push(out(`${eventLine(e)}\n`)));
  await Promise.all(printing);
  if (o.untilCommit === undefined) return 0;
  if (!end.reached) {
    await out(`${terminalLine(`not at ${o.untilCommit} after ${formatDuration(o.timeout ?? 0)}: ${end.missing.join(', ')}`)}\n`);
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
  const result = run.success ? 'ok' : 'failed';
  return terminalLine(`${run.ended_at} ${run.host} ${result} ${run.commit?.slice(0, 12) ?? '-'}: ${s.changed} changed, ${s.failed} failed of ${s.resources}`);
}
