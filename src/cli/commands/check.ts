// `govern check [--facts FILE|DIR] [--format text|json|sarif|junit] [PATH]`: every problem of a
// tree at once, without the host (src/check/, docs/check.md).
import { defaultStateTree } from '../../config/paths.js';
import { CHECK_FORMATS, runCheck } from '../../check/run-check.js';
import { chooseSnapshots } from '../../plan/hosts.js';
import { out } from '../../output/writers.js';
import { described } from '../command-names.js';
import { defineCommand, treeOperand } from '../command.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { planningOptions } from '../planning-options.js';
import { previewSettings } from '../preview-options.js';

export const checkCommand = defineCommand({
  ...described('check'),
  details:
    'Plans the tree as govern plan does, for each snapshot of --facts (without it, with placeholder facts,\n' +
    'telling which facts each file reads), and reports every problem of every file: HCL, templates,\n' +
    'runners and keys, values, references, cycles, module parameters, data levels and keys, secrets.\n' +
    'Nothing is applied and no runner is asked about any machine. Exit 0: no problem; 1: problems (all\n' +
    'of them in the report); 2: the check could not run (no such tree, an unreadable snapshot).\n' +
    `Without PATH, the state tree govern run applies without one: ${defaultStateTree()}.`,
  options: optionTable([
    { name: 'facts', kind: 'text', placeholder: 'FILE|DIR', help: 'check for the host of a govern facts --json snapshot, or for each HOST.json of a directory' },
    { name: 'format', kind: 'choice', placeholder: 'FORMAT', choices: CHECK_FORMATS, default: 'text', help: 'text (file:line:column: message), json, sarif (SARIF 2.1.0) or junit (JUnit XML)' },
    ...planningOptions,
    ...helpOptions,
  ]),
  failureExit: 2,
  async run(o, operands) {
    const target = treeOperand(operands, this.usage);
    const snapshots = o.facts !== undefined ? chooseSnapshots(o.facts, undefined) : undefined;
    const result = await runCheck(previewSettings(target, o), snapshots, o.format);
    await out(result.text);
    return result.exitCode;
  },
});
