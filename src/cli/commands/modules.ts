// `govern modules [NAME] [PATH]`: a tree's modules with their parameters (type, default,
// description), as ansible-doc shows a role's; with NAME, also where the module is instantiated on
// this host (module blocks, and the data key `modules`). It applies nothing.
import { defaultStateTree } from '../../config/paths.js';
import { fetchModules } from '../../module-sources/fetch.js';
import { outdatedModules } from '../../module-sources/outdated.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, warn } from '../../output/writers.js';
import { factsOptions, helpOptions, localFacts } from '../common-options.js';
import { optionTable } from '../options.js';
import { remoteFactOptions, remoteFacts } from '../remote-options.js';
import { describeModules, moduleInstances } from '../../plan/module-instances.js';
import { treeAndOperands, treeSearchPaths } from '../../plan/tree-paths.js';

/** How long one git command of a fetch may take: a clone of a large repository over a slow link. */
const GIT_TIMEOUT_MS = 10 * 60 * 1000;

const lines = (l: string[]) => l.map((x) => `${x}\n`).join('');

export const modulesCommand = defineCommand({
  ...described('modules'),
  details:
    'The last operand is PATH when it is a directory; without one, the state tree govern run applies:\n' +
    `${defaultStateTree()}. With NAME, the instances are those this host's planning finds: the tree's\n` +
    'module blocks and the modules its data lists (see docs/modules.md).\n' +
    'fetch vendors the modules modules.hcl names into modules/ and writes modules.lock; update [NAME...]\n' +
    'does the same and accepts a ref that now names another commit; outdated lists newer version tags.',
  options: optionTable([...factsOptions, ...remoteFactOptions, ...helpOptions]),
  async run(o, operands) {
    const { root, rest } = treeAndOperands(operands);
    const verb = rest[0];
    if (verb === 'fetch' || verb === 'update') {
      if (verb === 'fetch' && rest.length > 1) throw new UserError(`usage: ${this.usage}`);
      const update = verb === 'update' ? (rest.length > 1 ? new Set(rest.slice(1)) : 'all' as const) : new Set<string>();
      await out(lines(await fetchModules({ root, update, env: process.env, timeoutMs: GIT_TIMEOUT_MS })));
      return 0;
    }
    if (verb === 'outdated') {
      if (rest.length > 1) throw new UserError(`usage: ${this.usage}`);
      await out(lines((await outdatedModules(root, process.env, GIT_TIMEOUT_MS)).lines));
      return 0;
    }
    if (rest.length > 1) throw new UserError(`usage: ${this.usage}`);
    const [name] = rest;
    const sources = () => ({ local: localFacts(o, treeSearchPaths(o, root)), remote: remoteFacts(o) });
    await out(name === undefined ? describeModules(root) : await moduleInstances(root, name, sources, warn));
    return 0;
  },
});
