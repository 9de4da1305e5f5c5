// `govern data [KEY...] [PATH]`: the data this host sees from a state tree's hierarchy
// (docs/data.md), every key or the keys named; --explain shows each key's search level by level.
// It applies nothing and reads only the tree and the facts its hierarchy names.
import { defaultStateTree } from '../../config/paths.js';
import { formatExplanation, formatValueLines } from '../../data/explain.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, warn } from '../../output/writers.js';
import { factsOptions, helpOptions, localFacts } from '../common-options.js';
import { optionTable } from '../options.js';
import { remoteFactOptions, remoteFacts } from '../remote-options.js';
import { lookUpKeys } from '../../plan/data-keys.js';
import { treeAndOperands, treeSearchPaths } from '../../plan/tree-paths.js';

export const dataCommand = defineCommand({
  ...described('data'),
  details:
    'The levels are those of PATH/hierarchy.hcl, rendered with this host\'s facts; each key is looked up as\n' +
    'templates look it up with {{data "KEY"}}. Without KEY, every top-level key of the levels\' files.\n' +
    'The last operand is PATH when it is a directory; without one, the state tree govern run applies:\n' +
    `${defaultStateTree()}. A key no level has is reported on stderr, and govern exits 1 after printing the rest.`,
  options: optionTable([
    { name: 'json', kind: 'flag', help: 'print a JSON object of key to value (with --explain, the searches as JSON)' },
    { name: 'explain', kind: 'flag', help: 'for each key, every level in order: its file, whether it had the key, which answered' },
    ...factsOptions,
    ...remoteFactOptions,
    ...helpOptions,
  ]),
  async run(o, operands) {
    const { root, rest: keys } = treeAndOperands(operands);
    const sources = () => ({ local: localFacts(o, treeSearchPaths(o, root)), remote: remoteFacts(o) });
    const { explanations, values } = await lookUpKeys(root, keys, sources, o.explain, warn);
    if (o.explain) await out(o.json ? JSON.stringify(explanations, null, 2) + '\n' : explanations.map(formatExplanation).join('\n'));
    else await out(o.json ? JSON.stringify(Object.fromEntries(values), null, 2) + '\n' : formatValueLines(values));
    return explanations.some((e) => !e.result) ? 1 : 0;
  },
});
