// `govern facts [NAME...]`: the local host's facts (or another host's, with --host).
import { treeRoot } from '../../config/paths.js';
import { collectLocal, collectRemote, isTreePath } from '../../facts/collect.js';
import { formatFactJson, formatFactLines } from '../../facts/format.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, warn } from '../../output/writers.js';
import { factsOptions, helpOptions, localFacts } from '../common-options.js';
import { optionTable } from '../options.js';
import { remoteFacts, sshOptions } from '../remote-options.js';
import { treeSearchPaths } from '../../plan/tree-paths.js';

const options = optionTable([
  { name: 'json', kind: 'flag', help: 'print a JSON object of name to value' },
  { name: 'host', kind: 'text', placeholder: 'HOST', help: 'print the facts of HOST (an ssh destination) instead' },
  ...factsOptions,
  ...sshOptions,
  ...helpOptions,
]);

export const factsCommand = defineCommand({
  ...described('facts'),
  details:
    'Without names, every fact. A fact that fails (non-zero exit, timeout, over 1 MiB) is reported on stderr\n' +
    'and left out, and govern exits 1 after printing the rest. A multi-line value is printed with \\n, \\t, \\r\n' +
    'and \\\\ escapes so each fact stays on one line; --json prints the values as they are.\n' +
    'With --host, the facts of another host, over ssh (see docs/hostfact.md); --facts-dir and\n' +
    "--fact-timeout then belong to that host's own govern and are not accepted here.\n" +
    "A PATH (a state tree or a file of one, starting with /, ./ or ../) puts the tree's own facts.d/ first,\n" +
    "then its modules' facts.d/, as govern run and govern render do.",
  options,
  async run(o, names, line) {
    if (o.host !== undefined) {
      for (const local of ['facts-dir', 'fact-timeout']) {
        if (line.given.has(local)) throw new UserError(`--${local} cannot be used with --host: set it in the remote command (--remote-command)`);
      }
    }
    // A state tree (or one of its files) among the arguments: its own facts.d/ comes first, as in govern run.
    const trees = o.host === undefined ? names.filter(isTreePath) : [];
    if (trees.length > 1) throw new UserError(`give one state tree, not ${trees.length}: ${trees.join(', ')}`);
    const wanted = names.filter((n) => !trees.includes(n));
    const tree = trees.length > 0 ? treeRoot(trees[0]) : undefined;
    const { values, warnings, failed } = o.host === undefined ? await collectLocal(localFacts(o, treeSearchPaths(o, tree)), wanted) : await collectRemote(remoteFacts(o), o.host, names);
    for (const warning of warnings) warn(warning);
    await out(o.json ? formatFactJson(values) : formatFactLines(values));
    return failed ? 1 : 0;
  },
});
