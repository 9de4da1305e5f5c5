// `govern modules [NAME]`: a tree's modules with their parameters (type, default, description); with
// NAME, also where this host's planning instantiates it (the tree's module blocks, and the modules
// its data lists), found by the data, render, parse and modules steps of planning.
import path from 'node:path';
import { formatLocation, UserError } from '../shared/errors.js';
import { didYouMean } from '../shared/suggest.js';
import { parseFiles, renderStateFiles } from '../state/load.js';
import { MODULES_DIR, type VariableDecl } from '../state/modules/declarations.js';
import { expandModules } from '../state/modules/expand.js';
import { moduleNames, readModule, type ModuleSource } from '../state/modules/module-tree.js';
import { unknownDataParams } from '../state/modules/params.js';
import type { FactSources } from '../templates/fact-sources.js';
import { readTreeData } from './data.js';

/** Every module of the tree at root, with its parameters; none is an error. */
export function describeModules(root: string): string {
  const names = moduleNames(root);
  if (names.length === 0) throw new UserError(`${root}: no ${MODULES_DIR}/ directory with modules here (docs/modules.md)`);
  return names.map((n) => describeModule(root, readModule(root, n))).join('\n');
}

/** The module NAME and its instances on this host; `warn` is told of data that does not fit it as it is found. */
export async function moduleInstances(root: string, name: string, sources: () => FactSources, warn: (message: string) => void): Promise<string> {
  const names = moduleNames(root);
  if (!names.includes(name)) throw new UserError(`"${name}" is not a module of ${root}${didYouMean(name, names)}`);
  const module = readModule(root, name);
  const facts = sources();
  const data = await readTreeData(root, facts);
  for (const message of [...(data?.warnings ?? []), ...unknownDataParams(name, module.variables, data)]) warn(message);
  const rendered = await renderStateFiles(root, { ...facts, data });
  if (rendered.problems.length > 0) throw new UserError(rendered.problems);
  const parsed = parseFiles(rendered.texts);
  const { instances } = await expandModules(undefined, parsed.instances, data, facts);
  const mine = instances.filter((i) => i.source === name);
  const where = mine.map((i) => `  ${i.name}  ${formatLocation(relative(root, i.at))}${i.fromData ? ' (data "modules")' : ''}\n`);
  return `${describeModule(root, module)}\ninstances on this host:\n${where.length > 0 ? where.join('') : '  none\n'}`;
}

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
