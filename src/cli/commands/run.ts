// `govern run PATH`: plan, apply, notify, report (as text while it runs, or as JSON at the end); the
// run itself is src/run/run.ts.
import path from 'node:path';
import { defaultStateTree, treeRoot } from '../../config/paths.js';
import { planTree } from '../../plan/plan-tree.js';
import { errorDocument } from '../../run/error-document.js';
import { lockedRun, underRunLock } from '../../run/run.js';
import { described } from '../command-names.js';
import { defineCommand, treeOperand } from '../command.js';
import type { CommandLine } from '../options.js';
import { runOptions, runSettings } from '../run-options.js';

export const runCommand = defineCommand({
  ...described('run'),
  details:
    `Without PATH, applies ${defaultStateTree()}. One run at a time: a run waits for the one under way.\n` +
    'After a run that is not --noop, its report is kept as VAR_DIR/last-run.json for govern status.\n' +
    'Prints a line for each resource that changed (or would, with --noop), failed or was skipped, with its\n' +
    'diff, a line for each notification, and a summary of the whole run.\n' +
    'Exit status: 0 success, 1 a failure (or an error before anything was applied).\n' +
    'With --detailed-exitcodes: 0 no changes, 2 changes, 4 failures, 6 changes and failures\n' +
    '(errors before anything was applied still exit 1).',
  options: runOptions,
  async run(o, operands) {
    const target = treeOperand(operands, this.usage);
    return underRunLock(o, () => lockedRun(runSettings(o), { target, plan: planTree }));
  },
  // Options that cannot be read: with --json, still a JSON document.
  async errorDocument(e: unknown, line: CommandLine) {
    if (!line.given.has('json')) return undefined;
    const target = line.operands[0] ?? defaultStateTree();
    return errorDocument(path.resolve(target), treeRoot(target), line.given.has('noop'), e);
  },
});
