// `govern status`: the last real run, as a monitoring plugin answers (record/status.ts).
import { readLastPull } from '../../record/last-pull.js';
import { readLastRun } from '../../record/last-run.js';
import { checkedLastRun } from '../../record/report-check.js';
import { lastRunStatus } from '../../record/status.js';
import { readPublishRecord } from '../../fleet/publish-record.js';
import { withPublishNote } from '../../fleet/status-note.js';
import { UserError } from '../../shared/errors.js';
import { terminalLine } from '../../shared/terminal-text.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out } from '../../output/writers.js';
import { helpOptions, varDirOptions } from '../common-options.js';
import { optionTable } from '../options.js';

export const statusCommand = defineCommand({
  ...described('status'),
  details:
    'Reads VAR_DIR/last-run.json, which every govern run that is not --noop writes, and\n' +
    'VAR_DIR/last-pull.json, which every govern pull writes.\n' +
    'Exit status: 0 OK; 1 WARNING, the last run is older than --max-age, the last pull failed or was\n' +
    'refused, or a staged rollout has held the pulls longer than --max-held (held less long: OK, with a note);\n' +
    '2 CRITICAL, the last run had failures, stopped before applying or was interrupted, or the\n' +
    'last pull refused a rollback; 3 UNKNOWN, no usable run is recorded. Performance data follows a "|".',
  failureExit: 3,
  options: optionTable([
    { name: 'max-age', kind: 'duration', placeholder: 'DURATION', env: 'GOVERN_MAX_AGE', default: '1h', help: 'warn when the last run ended longer ago than this' },
    { name: 'max-held', kind: 'duration', placeholder: 'DURATION', env: 'GOVERN_MAX_HELD', help: "warn when a staged rollout has held the pulls for longer than this (default: 6h, or the held commit's rollout.hcl's wait for this host's stage and an hour more, if longer; docs/rollout-stages.md)" },
    ...varDirOptions,
    ...helpOptions,
  ]),
  async run(o, operands) {
    if (operands.length > 0) throw new UserError(`govern status takes no operands (usage: ${this.usage})`);
    const last = checkedLastRun(readLastRun(o.varDir));
    const answer = withPublishNote(lastRunStatus(last, Date.now(), o.maxAge, readLastPull(o.varDir), o.maxHeld), last, readPublishRecord(o.varDir));
    await out(`${terminalLine(answer.line)}\n`);
    return answer.code;
  },
});
