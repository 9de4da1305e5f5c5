// `govern status`: the last real run, as a monitoring plugin answers (record/status.ts).
import { readLastRun } from '../../record/last-run.js';
import { lastRunStatus } from '../../record/status.js';
import { readPublishRecord } from '../../fleet/publish-record.js';
import { withPublishNote } from '../../fleet/status-note.js';
import { UserError } from '../../shared/errors.js';
import { terminalLine } from '../../shared/terminal-text.js';
import { described } from '../command-index.js';
import { defineCommand, out } from '../command.js';
import { helpOptions, varDirOptions } from '../common-options.js';
import { optionTable } from '../options.js';

export const statusCommand = defineCommand({
  ...described('status'),
  details:
    'Reads VAR_DIR/last-run.json, which every govern run that is not --noop writes.\n' +
    'Exit status: 0 OK; 1 WARNING, the last run is older than --max-age; 2 CRITICAL, it had failures\n' +
    'or stopped before applying; 3 UNKNOWN, no run is recorded. Performance data follows a "|".',
  failureExit: 3,
  options: optionTable([
    { name: 'max-age', kind: 'duration', placeholder: 'DURATION', env: 'GOVERN_MAX_AGE', default: '1h', help: 'warn when the last run ended longer ago than this' },
    ...varDirOptions,
    ...helpOptions,
  ]),
  async run(o, operands) {
    if (operands.length > 0) throw new UserError(`govern status takes no operands (usage: ${this.usage})`);
    const last = readLastRun(o.varDir);
    const answer = withPublishNote(lastRunStatus(last, Date.now(), o.maxAge), last, readPublishRecord(o.varDir));
    await out(`${terminalLine(answer.line)}\n`);
    return answer.code;
  },
});
