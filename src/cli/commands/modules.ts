// `govern modules [NAME] [PATH]`: a tree's modules with their parameters (type, default,
// description), as ansible-doc shows a role's; with NAME, also where the module is instantiated on
// this host (module blocks, and the data key `modules`). It applies nothing.
import { defaultStateTree } from '../../config/paths.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, warn } from '../../output/writers.js';
import { factsOptions, helpOptions, localFacts } from '../common-options.js';
import { optionTable } from '../options.js';
import { remoteFactOptions, remoteFacts } from '../remote-options.js';
import { describeModules, moduleInstances } from '../../plan/module-instances.js';
import { treeAndOperands, treeSearchPaths } from '../../plan/tree-paths.js';

export const modulesCommand = defineCommand({
  ...described('modules'),
  details:
    'The last operand is PATH when it is a directory; without one, the state tree govern run applies:\n' +
    `${defaultStateTree()}. With NAME, the instances are those this host's planning finds: the tree's\n` +
    'module blocks and the modules its data lists (see docs/modules.md).',
  options: optionTable([...factsOptions, ...remoteFactOptions, ...helpOptions]),
  async run(o, operands) {
    const { root, rest } = treeAndOperands(operands);
    if (rest.length > 1) throw new UserError(`usage: ${this.usage}`);
    const [name] = rest;
    const sources = () => ({ local: localFacts(o, treeSearchPaths(o, root)), remote: remoteFacts(o) });
    await out(name === undefined ? describeModules(root) : await moduleInstances(root, name, sources, warn));
    return 0;
  },
});
