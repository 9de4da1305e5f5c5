// `govern facts [NAME...]`: the local host's facts (or another host's, with --host).
import fs from 'node:fs';
import { treeRoot } from '../../config/paths.js';
import type { LocalFacts } from '../../facts/local-facts.js';
import { formatFactJson, formatFactLines } from '../../facts/format.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, warn } from '../../output/writers.js';
import { factsOptions, helpOptions, localFacts } from '../common-options.js';
import { optionTable, type Options } from '../options.js';
import { remoteFacts, sshOptions } from '../remote-options.js';
import { treeSearchPaths } from '../tree-data.js';

interface Collected {
  values: Map<string, string>;
  failed: boolean;
}

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
    const { values, failed } = o.host === undefined ? await collect(localFacts(o, treeSearchPaths(o, tree)), wanted) : await collectRemote(o, o.host, names);
    await out(o.json ? formatFactJson(values) : formatFactLines(values));
    return failed ? 1 : 0;
  },
});

/** A path rather than a fact name: fact names are relative and never start with "." (os/name). */
function isTreePath(arg: string): boolean {
  if (!(arg.startsWith('/') || arg.startsWith('./') || arg.startsWith('../') || arg === '.' || arg === '..' || arg.endsWith('/'))) return false;
  try {
    fs.statSync(arg);
    return true;
  } catch {
    return false;
  }
}

async function collect(facts: LocalFacts, wanted: string[]): Promise<Collected> {
  let failed = false;
  for (const problem of await facts.problems()) {
    warn(problem);
    failed = true;
  }
  const names = wanted.length > 0 ? wanted : await facts.names();
  await facts.load(names);
  const values = new Map<string, string>();
  for (const name of names) {
    const result = facts.peek(name)!;
    if (result.ok) values.set(name, result.value);
    else {
      warn(`fact ${name}: ${result.error}`);
      failed = true;
    }
  }
  return { values, failed };
}

async function collectRemote(o: Options<typeof options>, host: string, names: string[]): Promise<Collected> {
  const answer = await remoteFacts(o).ask(host, names); // an invalid host or fact name is a UserError
  if (!answer.reached) throw new UserError(`could not get facts from ${host}: ${answer.error}`);
  for (const line of answer.warnings) warn(`${host}: ${line}`);
  for (const [name, reason] of answer.failed) warn(`${host}: fact ${name}: ${reason}`);
  return { values: answer.values, failed: answer.failed.size > 0 || answer.warnings.length > 0 };
}
