// `govern fmt [--check] [--diff] [PATH...]`: a tree's HCL in the canonical layout (src/fmt/, docs/editing.md).
import { defaultStateTree } from '../../config/paths.js';
import { fmtTree } from '../../fmt/fmt-tree.js';
import { out, printError } from '../../output/writers.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';

export const fmtCommand = defineCommand({
  ...described('fmt'),
  details:
    'Lays out state files, module files, data files, hierarchy.hcl and recipients.hcl as terraform fmt\n' +
    'does: two spaces per level, "=" aligned over consecutive attributes, one blank line after a block,\n' +
    'a final newline. Only blanks change: comments, values and {{...}} template text stay as written. A\n' +
    'file fmt cannot lay out without risking its meaning is left as it is and named. Exit 0; 1 when a file\n' +
    'was left as it is, or with --check when a file would change. Without PATH, the state tree govern run\n' +
    `applies without one: ${defaultStateTree()}.`,
  options: optionTable([
    { name: 'check', kind: 'flag', help: 'write nothing: list the files that would change, and exit 1 if any would' },
    { name: 'diff', kind: 'flag', help: 'show each change as a unified diff (written unless --check)' },
    ...helpOptions,
  ]),
  async run(o, operands) {
    const result = fmtTree({ paths: operands.length > 0 ? operands : [defaultStateTree()], check: o.check, diff: o.diff });
    await out(result.text);
    if (result.problems.length > 0) printError(new UserError(result.problems));
    return result.exitCode;
  },
});
