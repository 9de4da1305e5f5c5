// `govern secret set|show|recipients|rekey`: the people's side of encrypted data (docs/secrets.md).
// None needs root: each reads and writes only the tree's files, and the plain text comes from
// stdin and goes to stdout, never through argv or a file.
import fs from 'node:fs';
import { formatProblem, UserError } from '../../shared/errors.js';
import { utf8Text } from '../../secrets/age.js';
import { didYouMean } from '../../shared/suggest.js';
import { DEFAULT_IDENTITY } from '../../secrets/reveal.js';
import { promptHidden } from '../../secrets/prompt.js';
import { namesToSet, rekeyTree, secretReaders, setSecret, showSecret } from '../../secrets/tree-secrets.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, outValue, warn } from '../../output/writers.js';
import { helpOptions, identityOptions } from '../common-options.js';
import { optionTable } from '../options.js';

const ACTIONS = ['set', 'show', 'recipients', 'rekey'];

export const secretCommand = defineCommand({
  ...described('secret'),
  details:
    'govern secret set DATAFILE KEY [--to NAMES]          encrypt the value from stdin (or typed, unseen) to whom it is for\n' +
    'govern secret show DATAFILE KEY [--identity FILE]    decrypt a value to stdout\n' +
    'govern secret recipients DATAFILE [KEY]              who can read each encrypted value\n' +
    'govern secret rekey [--identity FILE] [--all] [ROOT] encrypt again the values whose readers changed\n' +
    'Names come from recipients.hcl at the tree\'s root (the directory holding data/; ROOT for rekey, . by\n' +
    'default): its values rules say whom each value is for; --to is needed where no rule matches.\n' +
    'One trailing newline of the value read by set is dropped; an empty value is refused unless\n' +
    '--allow-empty is given.',
  options: optionTable([
    { name: 'to', kind: 'list', placeholder: 'NAMES', help: 'set: the hosts, people and groups of recipients.hcl that can read the value (where no values rule decides)' },
    { name: 'allow-empty', kind: 'flag', help: 'set: store an empty value (refused otherwise: a failed command before the pipe gives one)' },
    { name: 'all', kind: 'flag', help: 'rekey: encrypt every value it can read again, not only those whose recipients changed' },
    ...identityOptions,
    ...helpOptions,
  ]),
  async run(o, operands) {
    const [action, ...args] = operands;
    const arity = (min: number, max: number, usage: string) => {
      if (args.length < min || args.length > max) throw new UserError(`usage: govern secret ${usage}`);
    };
    const identity = o.identity ?? DEFAULT_IDENTITY;
    switch (action) {
      case 'set': {
        arity(2, 2, 'set DATAFILE KEY [--to NAME[,NAME...]] < value');
        const names = namesToSet(args[0], args[1], o.to);
        const value = process.stdin.isTTY ? await promptHidden(`Value of ${args[1]} (not shown): `) : readValue();
        if (value === '' && !o.allowEmpty) throw new UserError(`secret set: the value of ${args[1]} is empty (did the command before the pipe fail?): nothing was written; give --allow-empty to store an empty value`);
        setSecret(args[0], args[1], value, names);
        return 0;
      }
      case 'show':
        arity(2, 2, 'show DATAFILE KEY [--identity FILE]');
        await outValue(showSecret(args[0], args[1], identity));
        return 0;
      case 'recipients': {
        arity(1, 2, 'recipients DATAFILE [KEY]');
        const readers = secretReaders(args[0], args[1]);
        for (const r of readers) if (r.problem) warn(formatProblem(r.problem));
        const lines = readers.map((r) => `${r.key}\t${r.to.join(',')}\t${r.members.join(',')}\n`);
        await out(lines.join(''));
        return 0;
      }
      case 'rekey': {
        arity(0, 1, 'rekey [--identity FILE] [--all] [ROOT]');
        const result = rekeyTree(args[0] ?? '.', identity, o.all === true);
        for (const problem of [...result.warnings, ...result.unread]) warn(formatProblem(problem));
        const plural = (n: number) => `${n} value${n === 1 ? '' : 's'}`;
        const summary = result.values === 0 ? 'no encrypted values under data/: nothing to encrypt again'
          : result.rekeyed.length === 0 && result.unread.length === 0 ? `nothing to encrypt again: ${plural(result.values)} under data/, each encrypted to its names' members of today`
          : `${plural(result.rekeyed.length)} of ${result.values} encrypted again${result.unread.length > 0 ? `; ${plural(result.unread.length)} left as ${result.unread.length === 1 ? 'it was' : 'they were'} (see above)` : ''}`;
        await out(result.rekeyed.map((line) => `${line}\n`).join('') + `${summary}\n`);
        return result.unread.length > 0 || result.values === 0 ? 1 : 0;
      }
      default:
        throw new UserError(action === undefined ? `usage: govern secret ${ACTIONS.join('|')} ...` : `unknown action "${action}"${didYouMean(action, ACTIONS)}: govern secret ${ACTIONS.join('|')}`);
    }
  },
});

function readValue(): string {
  let text: string;
  try {
    text = utf8Text(fs.readFileSync(0), 'the value on stdin');
  } catch (e) {
    throw new UserError(`secret set: ${(e as Error).message}; nothing was written`);
  }
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
