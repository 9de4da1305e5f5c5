// `govern modules [NAME] [PATH]`: a tree's modules with their parameters (type, default,
// description), as ansible-doc shows a role's; with NAME, also where the module is instantiated on
// this host (module blocks, and the data key `modules`). It applies nothing.
import path from 'node:path';
import { defaultStateTree } from '../../config/paths.js';
import { formatLocation, UserError } from '../../shared/errors.js';
import { didYouMean } from '../../shared/suggest.js';
import { parseFiles, renderStateFiles } from '../../state/load.js';
import { MODULES_DIR, type VariableDecl } from '../../state/modules/declarations.js';
import { expandModules } from '../../state/modules/expand.js';
import { moduleNames, readModule, type ModuleSource } from '../../state/modules/module-tree.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out } from '../../output/writers.js';
import { factsOptions, helpOptions, localFacts } from '../common-options.js';
import { optionTable } from '../options.js';
import { remoteFactOptions, remoteFacts } from '../remote-options.js';
import { readTreeData } from '../../plan/data.js';
import { treeAndOperands, treeSearchPaths } from '../tree-data.js';

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
    const names = moduleNames(root);
    const [name] = rest;
    if (name === undefined) {
      if (names.length === 0) throw new UserError(`${root}: no ${MODULES_DIR}/ directory with modules here (docs/modules.md)`);
      await out(names.map((n) => describeModule(root, readModule(root, n))).join('\n'));
      return 0;
    }
    if (!names.includes(name)) throw new UserError(`"${name}" is not a module of ${root}${didYouMean(name, names)}`);
    const module = readModule(root, name);
    const paths = treeSearchPaths(o, root);
    const sources = { local: localFacts(o, paths), remote: remoteFacts(o) };
    const data = await readTreeData(root, sources);
    const parsed = parseFiles(await renderStateFiles(root, { ...sources, data }));
    const { instances } = await expandModules(undefined, parsed.instances, data, sources);
    const mine = instances.filter((i) => i.source === name);
    const where = mine.map((i) => `  ${i.name}  ${formatLocation(relative(root, i.at))}${i.fromData ? ' (data "modules")' : ''}\n`);
    await out(`${describeModule(root, module)}\ninstances on this host:\n${where.length > 0 ? where.join('') : '  none\n'}`);
    return 0;
  },
});

function describeModule(root: string, module: ModuleSource): string {
  const rows = module.variables.map((v) => [v.name, v.type, defaultText(v), v.description ?? '']);
  const widths = [0, 1, 2].map((i) => Math.max(0, ...rows.map((row) => row[i].length)));
  const lines = rows.map((row) => `  ${row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell)).join('  ')}`.trimEnd());
  return `${module.name}  ${path.relative(root, module.dir) || module.dir}\n${lines.length > 0 ? lines.join('\n') + '\n' : '  (no parameters)\n'}`;
}

function defaultText(v: VariableDecl): string {
  const allowed = v.values ? ` one of ${v.values.map((x) => JSON.stringify(x)).join(', ')}` : v.pattern !== undefined ? ` matching ${JSON.stringify(v.pattern)}` : '';
  return (v.default === undefined ? 'required' : `default ${JSON.stringify(v.default)}`) + allowed;
}

function relative(root: string, at: { file: string; line?: number }) {
  return { ...at, file: path.relative(root, at.file) || at.file };
}
