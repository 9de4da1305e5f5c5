// `govern facts [NAME...]`: the local host's facts (or another host's, with --host).
import type { LocalFacts } from '../../facts/local-facts.js';
import { formatFactJson, formatFactLines } from '../../facts/format.js';
import { out, warn, type Command } from '../command.js';
import { factsOptions, helpOption, localFacts, searchPaths } from '../common-options.js';

export const factsCommand: Command = {
  name: 'facts',
  usage: 'govern facts [--json] [NAME...]',
  summary: 'print facts: name<TAB>value, sorted by name',
  details:
    'Without names, every fact. A fact that fails (non-zero exit, timeout, over 1 MiB) is reported on stderr\n' +
    'and left out, and govern exits 1 after printing the rest. A multi-line value is printed with \\n, \\t, \\r\n' +
    'and \\\\ escapes so each fact stays on one line; --json prints the values as they are.',
  options: [{ name: 'json', help: 'print a JSON object of name to value' }, ...factsOptions, helpOption],
  async run(args) {
    const facts = localFacts(args, searchPaths(args));
    const { values, failed } = await collect(facts, args.positional);
    await out(args.flags.has('json') ? formatFactJson(values) : formatFactLines(values));
    return failed ? 1 : 0;
  },
};

async function collect(facts: LocalFacts, wanted: string[]): Promise<{ values: Map<string, string>; failed: boolean }> {
  let failed = false;
  for (const problem of facts.problems()) {
    warn(problem);
    failed = true;
  }
  const names = wanted.length > 0 ? wanted : facts.names();
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
