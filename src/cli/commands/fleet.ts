// `govern fleet`: every host's last run, from the fleet's NATS buckets (docs/fleet.md), as a table
// and as one monitoring check; `--watch` follows a rollout as hosts report (src/fleet/fleet-status.ts).
// `govern fleet run` asks hosts to run now (src/fleet/ask-hosts.ts).
import { writeHostKey } from '../../fleet/host-key.js';
import { fleetRun } from '../../fleet/ask-hosts.js';
import { fleetStatus, parseConditions } from '../../fleet/fleet-status.js';
import { fleetHistory } from '../../fleet/fleet-history.js';
import { FleetUnreachable } from '../../fleet/read-fleet.js';
import { RUNS_HISTORY } from '../../fleet/settings.js';
import { UserError } from '../../shared/errors.js';
import { terminalLine } from '../../shared/terminal-text.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, printError } from '../../output/writers.js';
import { helpOptions } from '../common-options.js';
import { fleetConnectionOptions, fleetSettings } from '../fleet-options.js';
import { optionTable } from '../options.js';

const options = optionTable([
  { name: 'where', kind: 'texts', placeholder: 'FACT=VALUE', help: 'only hosts whose published fact FACT is VALUE (repeat: all must hold)' },
  { name: 'json', kind: 'flag', help: 'print the hosts as JSON' },
  { name: 'max-age', kind: 'duration', placeholder: 'DURATION', env: 'GOVERN_MAX_AGE', default: '1h', help: 'warn about a host whose last run ended longer ago than this' },
  { name: 'changed-since', kind: 'duration', placeholder: 'DURATION', help: 'only hosts whose last run changed something and ended within DURATION' },
  { name: 'limit', kind: 'number', placeholder: 'N', help: `with history: the last N runs (default and most: what the bucket keeps, ${RUNS_HISTORY})` },
  { name: 'watch', kind: 'flag', help: 'then print each selected host\'s run as it is published (hosts whose facts come to match join)' },
  { name: 'until-commit', kind: 'text', placeholder: 'COMMIT', help: 'with --watch: stop when every selected host has reported a run at COMMIT (or a prefix of it)' },
  { name: 'timeout', kind: 'duration', placeholder: 'DURATION', help: 'with --watch: stop after this long; with run: the most a batch may take (default 30m)' },
  { name: 'batch', kind: 'text', placeholder: 'N|N%', help: 'with run: ask this many hosts (or this share of them) at a time; default all at once' },
  { name: 'noop', short: 'n', kind: 'flag', help: 'with run: print the batches, and ask no host' },
  { name: 'sign-key', kind: 'text', placeholder: 'FILE', env: 'GOVERN_FLEET_SIGN_KEY', help: "with run: sign each request with the user nkey seed in FILE (default: --fleet-creds' seed), as listeners require" },
  ...fleetConnectionOptions,
  ...helpOptions,
]);

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
    "its public key for the server's configuration.\n" +
    'govern fleet history HOST prints the host\'s last runs (--limit), oldest first: exit status 0, or 1\n' +
    'when none is known. --changed-since DURATION selects the hosts whose last run changed something.',
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
    const asHistory = operands[0] === 'history';
    if (asHistory && operands.length !== 2) throw new UserError('usage: govern fleet history HOST [--limit N] [--json]');
    if (operands.length > 0 && !asRun && !asHistory) throw new UserError(`govern fleet takes no operand but "run", "history HOST" or "key FILE" (usage: ${this.usage})`);
    if (o.limit !== undefined && !asHistory) throw new UserError('--limit goes with govern fleet history');
    const settings = fleetSettings(o);
    if (settings === undefined) throw new UserError('no fleet is configured: give --fleet-url or set GOVERN_FLEET_URL');
    if (asHistory) return fleetHistory(settings, { host: operands[1], limit: o.limit ?? RUNS_HISTORY, json: o.json }, out);
    if (o.changedSince !== undefined && (asRun || o.watch)) throw new UserError('--changed-since does not go with --watch or govern fleet run');
    if (asRun) {
      if (o.watch || o.json || o.untilCommit !== undefined) throw new UserError('--watch, --json and --until-commit do not go with govern fleet run');
      const run = { where: parseConditions(o.where), batch: o.batch, noop: o.noop, batchTimeoutMs: o.timeout ?? 30 * 60_000, signKey: o.signKey ?? settings.credsFile };
      try {
        return await fleetRun(settings, run, out);
      } catch (e) {
        if (!(e instanceof FleetUnreachable)) throw e;
        printError(e);
        return 3;
      }
    }
    if (o.batch !== undefined || o.noop) throw new UserError('--batch and --noop go with govern fleet run');
    if (!o.watch && (o.untilCommit !== undefined || o.timeout !== undefined)) throw new UserError('--until-commit and --timeout go with --watch');
    return fleetStatus(settings, { where: parseConditions(o.where), json: o.json, maxAgeMs: o.maxAge, changedSinceMs: o.changedSince, watch: o.watch, untilCommit: o.untilCommit, timeoutMs: o.timeout }, out);
  },
});
