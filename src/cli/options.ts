// Command-line options as data: each command declares a table of them, from which its --help (and
// any man page or shell completion) is generated, and which is resolved once, at the edge, into one
// typed object: for each option the flag, else its GOVERN_* variable, else its default.
import { parseArgs } from 'node:util';
import type { DirList } from '../config/paths.js';
import { parseDuration } from '../shared/duration.js';
import { UserError, type Problem } from '../shared/errors.js';
import { splitCommandLine } from '../facts/remote/command-line.js';
import { closest } from '../shared/suggest.js';

/**
 * What an option's value is:
 * - `flag`: on or off; `counter`: a flag that may repeat (`-vv` is 2)
 * - `text`: a string; `command`: a command line, split into words as a shell would (nothing expanded)
 * - `list`: repeatable, each value also split at commas (`--tags web,tls --tags db`)
 * - `texts`: repeatable, each value as it is (`--var motd=a,b --var port=80`)
 * - `dirs`: repeatable directories added in front of a search path; the variable, colon-separated,
 *   is the whole path instead
 * - `duration`: `30s`, `5m`, `1h30m` (milliseconds once resolved); `number`: a positive whole number
 * - `choice`: one of `choices`
 */
export type OptionKind = 'flag' | 'counter' | 'text' | 'command' | 'list' | 'texts' | 'dirs' | 'duration' | 'number' | 'choice';

export interface OptionSpec {
  /** Long name, without dashes. */
  readonly name: string;
  /** One letter, without the dash. */
  readonly short?: string;
  readonly kind: OptionKind;
  /** The value's name in help (`DIR`, `N`). */
  readonly placeholder?: string;
  /** One line. Where the value comes from (default, variable, choices) is added from the fields below. */
  readonly help: string;
  /** The environment variable read when the flag is not given. */
  readonly env?: string;
  /** The value when neither the flag nor the variable is given, written as on the command line. */
  readonly default?: string;
  /** `choice` only: the accepted values. */
  readonly choices?: readonly string[];
  /** `duration` only: 0 is accepted (otherwise a duration must be more than 0). */
  readonly allowZero?: boolean;
  /** What other tools call this option (Ansible's `check` for --noop): suggested, never accepted. */
  readonly otherNames?: readonly string[];
}

/** Checks a table and keeps its literal types, so `Options<typeof table>` knows every option. */
export function optionTable<const T extends readonly OptionSpec[]>(table: T): T {
  return table;
}

export function takesValue(spec: OptionSpec): boolean {
  return spec.kind !== 'flag' && spec.kind !== 'counter';
}

export function repeatable(spec: OptionSpec): boolean {
  return spec.kind === 'counter' || spec.kind === 'list' || spec.kind === 'texts' || spec.kind === 'dirs';
}

interface KindValue {
  flag: boolean;
  counter: number;
  text: string;
  command: string[];
  list: string[];
  texts: string[];
  dirs: DirList;
  duration: number;
  number: number;
  choice: string;
}

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
type Value<S extends OptionSpec> = S extends { kind: 'choice'; choices: readonly (infer C)[] } ? C : KindValue[S['kind']];
type AlwaysSet = 'flag' | 'counter' | 'list' | 'texts' | 'dirs';
type Resolved<S extends OptionSpec> = S['kind'] extends AlwaysSet ? Value<S> : S extends { default: string } ? Value<S> : Value<S> | undefined;

/** The resolved options of a table: `--runner-timeout` becomes `runnerTimeout`, and so on. */
export type Options<T extends readonly OptionSpec[]> = { [S in T[number] as CamelCase<S['name']>]: Resolved<S> };

export function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A command line read against a table, before any value is checked. */
export interface CommandLine {
  operands: string[];
  /** Every occurrence of each option given, by long name: its value, or true for a flag. */
  given: Map<string, (string | true)[]>;
  /** Unknown options, missing values: reported when the options are resolved, all at once. */
  problems: Problem[];
}

/**
 * Reads argv with Node's parser, leniently, so that every problem can be reported at once and an
 * unknown option can be answered with the one it most likely meant. A value option takes the next
 * word whatever it looks like (as getopt does); a single-valued option given twice keeps the last.
 */
export function parseCommandLine(argv: string[], table: readonly OptionSpec[], commandName: string): CommandLine {
  const config = Object.fromEntries(
    table.map((s) => [s.name, { type: takesValue(s) ? ('string' as const) : ('boolean' as const), multiple: true, ...(s.short ? { short: s.short } : {}) }]),
  );
  const { tokens } = parseArgs({ args: argv, options: config, strict: false, allowPositionals: true, tokens: true });
  const line: CommandLine = { operands: [], given: new Map(), problems: [] };
  const byName = new Map(table.map((s) => [s.name, s]));
  for (const token of tokens) {
    if (token.kind === 'positional') line.operands.push(token.value);
    if (token.kind !== 'option') continue;
    const spec = byName.get(token.name);
    if (!spec) {
      line.problems.push({ message: unknownOption(token.rawName, table, commandName) });
      continue;
    }
    let value: string | true = true;
    if (takesValue(spec)) {
      if (token.value === undefined) {
        line.problems.push({ message: `${token.rawName} needs a value (${spec.placeholder ?? 'VALUE'})` });
        continue;
      }
      value = token.value;
    } else if (token.value !== undefined) {
      line.problems.push({ message: `--${spec.name} takes no value` });
      continue;
    }
    line.given.set(spec.name, [...(line.given.get(spec.name) ?? []), value]);
  }
  return line;
}

function unknownOption(raw: string, table: readonly OptionSpec[], commandName: string): string {
  const see = `see govern ${commandName} --help`;
  if (!raw.startsWith('--')) return `unknown option ${raw}; ${see}`;
  const word = raw.slice(2);
  // --diff when only --no-diff exists: what it asks for is already the default.
  if (table.some((s) => s.name === `no-${word}`)) return `unknown option ${raw}: it is the default (--no-${word} turns it off); ${see}`;
  const meant = table.find((s) => s.otherNames?.includes(word))?.name ?? closest(word, table.map((s) => s.name));
  return `unknown option ${raw}${meant ? ` (did you mean --${meant}?)` : ''}; ${see}`;
}

/** The typed options of a command line: flag, else variable, else default; every problem at once. */
export function resolveOptions<const T extends readonly OptionSpec[]>(table: T, line: CommandLine, env: NodeJS.ProcessEnv): Options<T> {
  const problems: Problem[] = [...line.problems];
  const options: Record<string, unknown> = {};
  for (const spec of table) {
    try {
      options[camelCase(spec.name)] = resolveOne(spec, line.given.get(spec.name) ?? [], env);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...e.problems);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  return options as Options<T>;
}

function resolveOne(spec: OptionSpec, given: (string | true)[], env: NodeJS.ProcessEnv): unknown {
  const fromEnv = spec.env !== undefined && env[spec.env] !== undefined && env[spec.env] !== '' ? env[spec.env]! : undefined;
  switch (spec.kind) {
    case 'flag':
      return given.length > 0 || (fromEnv !== undefined && envFlag(spec.env!, fromEnv));
    case 'counter':
      return given.length;
    case 'list':
      return (given.length > 0 ? (given as string[]) : fromEnv !== undefined ? [fromEnv] : []).flatMap((v) => v.split(',')).filter((v) => v !== '');
    case 'texts':
      return given.length > 0 ? (given as string[]) : fromEnv !== undefined ? [fromEnv] : [];
    case 'dirs':
      return { added: given as string[], path: fromEnv?.split(':').filter((d) => d !== '') };
  }
  const last = given.at(-1);
  const [text, what] =
    typeof last === 'string' ? [last, `--${spec.name}`] : fromEnv !== undefined ? [fromEnv, spec.env!] : spec.default !== undefined ? [spec.default, `--${spec.name}`] : [];
  if (text === undefined) return undefined;
  return convert(spec, text, what!);
}

function convert(spec: OptionSpec, text: string, what: string): unknown {
  switch (spec.kind) {
    case 'text':
      return text;
    case 'command':
      return splitCommandLine(text, what);
    case 'number':
      if (!/^\d+$/.test(text) || Number(text) < 1) throw new UserError(`${what} must be a positive whole number, not "${text}"`);
      return Number(text);
    case 'duration': {
      let ms: number;
      try {
        ms = parseDuration(text);
      } catch (e) {
        throw new UserError(`${what}: ${(e as Error).message}`);
      }
      if (ms <= 0 && !spec.allowZero) throw new UserError(`${what} must be more than 0`);
      return ms;
    }
    case 'choice':
      if (!spec.choices!.includes(text)) throw new UserError(`${what} must be ${orList(spec.choices!)}, not "${text}"`);
      return text;
  }
  throw new Error(`option kind ${spec.kind} takes no value`);
}

function envFlag(name: string, text: string): boolean {
  if (['1', 'true', 'yes'].includes(text)) return true;
  if (['0', 'false', 'no'].includes(text)) return false;
  throw new UserError(`${name} must be 1 or 0 (true or false), not "${text}"`);
}

/** "a, b or c" */
export function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The options part of `govern COMMAND --help`, generated from the table. */
export function formatOptionHelp(table: readonly OptionSpec[]): string {
  return table
    .map((s) => {
      const left = `${s.short ? `-${s.short}, ` : '    '}--${s.name}${takesValue(s) ? ` ${s.placeholder ?? 'VALUE'}` : ''}`;
      const notes = [
        s.choices ? orList(s.choices) : '',
        s.default !== undefined ? `default ${s.default}` : '',
        s.env ? (s.kind === 'dirs' ? `${s.env} is the whole path` : s.env) : '',
        repeatable(s) && s.kind !== 'counter' ? 'repeatable' : '',
      ].filter((n) => n !== '');
      return wrap(`${s.help}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`, HELP_WIDTH - 33)
        .map((text, i) => `  ${(i === 0 ? left : '').padEnd(30)} ${text}`)
        .join('\n');
    })
    .join('\n');
}

const HELP_WIDTH = 100;

/** Words into lines of at most `width` characters (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
