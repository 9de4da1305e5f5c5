// `govern data [KEY...] [PATH]`: the data this host sees from a state tree's hierarchy
// (docs/data.md), every key or the keys named; --explain shows each key's search level by level.
// It applies nothing and reads only the tree and the facts its hierarchy names.
import { defaultStateTree } from '../../config/paths.js';
import { formatExplanation, formatValueLines } from '../../data/explain.js';
import { HIERARCHY_FILE, keyPathProblem } from '../../data/hierarchy.js';
import type { Explanation } from '../../data/lookup.js';
import type { AttrValue } from '../../shared/protocol.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, warn } from '../../output/writers.js';
import { factsOptions, helpOptions, localFacts } from '../common-options.js';
import { optionTable } from '../options.js';
import { remoteFactOptions, remoteFacts } from '../remote-options.js';
import { readTreeData } from '../../plan/data.js';
import { treeAndOperands, treeSearchPaths } from '../tree-data.js';

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
    const bad = keys.map(keyPathProblem).filter((why): why is string => why !== undefined);
    if (bad.length > 0) throw new UserError(bad.map((message) => ({ message })));
    const paths = treeSearchPaths(o, root);
    const data = await readTreeData(root, { local: localFacts(o, paths), remote: remoteFacts(o) });
    if (data === undefined) throw new UserError(`${root}: no ${HIERARCHY_FILE} here, so no data (docs/data.md)`);
    const wanted = keys.length > 0 ? keys : data.topKeys().sort();
    let missing = false;
    const explanations: Explanation[] = [];
    const values = new Map<string, AttrValue>();
    for (const key of wanted) {
      const e = data.explain(key);
      explanations.push(e);
      if (e.result) values.set(key, e.result.value);
      else if (!o.explain) {
        warn(`no level has the key "${key}" (levels: ${data.levels.join(', ') || 'none'})`);
        missing = true;
      }
    }
    if (o.explain) await out(o.json ? JSON.stringify(explanations, null, 2) + '\n' : explanations.map(formatExplanation).join('\n'));
    else await out(o.json ? JSON.stringify(Object.fromEntries(values), null, 2) + '\n' : formatValueLines(values));
    return missing || (o.explain && explanations.some((e) => !e.result)) ? 1 : 0;
  },
});
