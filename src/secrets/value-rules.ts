// The `values` rules of recipients.hcl: which names an encrypted value of data/ is for, decided by
// the reviewed file rather than by the value's own `to=` label, which nothing authenticates
// (docs/secrets.md, "Who a value is for"). A rule is `"GLOB" = [NAMES]` or `"GLOB:KEYGLOB" =
// [NAMES]`; the first rule, in the order written, that matches a value's file (relative to data/)
// and key decides. `{NAME}` in the file glob matches one name and may be used in the list.
import type { Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { RECIPIENT_NAME } from './format.js';

export interface ValueRule {
  /** As written in recipients.hcl. */
  pattern: string;
  line: number;
  names: string[];
  file: RegExp;
  key?: RegExp;
}

export interface RuleMatch {
  rule: ValueRule;
  /** The rule's names with each `{NAME}` replaced by what it matched. */
  names: string[];
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const NAME_CLASS = '[A-Za-z0-9_][A-Za-z0-9_.-]*';

/** A glob as a whole-string regular expression: `**` any path, `*` and `?` inside one segment. */
function globRegExp(glob: string, placeholders: boolean): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '{' && placeholders) {
      const end = glob.indexOf('}', i);
      source += `(?<${glob.slice(i + 1, end)}>${NAME_CLASS})`;
      i = end;
    } else source += c.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Why a glob of a rule is not one, or undefined. */
function globProblem(glob: string, what: string): string | undefined {
  if (glob === '') return `the ${what} glob is empty`;
  if (glob.startsWith('/') || glob.split('/').includes('..')) return `the ${what} glob "${glob}" must stay inside data/ (no leading "/", no "..")`;
  if (/[\0-\x1f\x7f]/.test(glob)) return `the ${what} glob has a control character`;
  return undefined;
}

/** The rules of `values = { ... }`; problems at their lines. `known` holds the names of hosts, people and groups. */
export function readValueRules(file: string, value: AttrValue, lineOf: (name: string) => number, known: ReadonlySet<string>, problems: Problem[]): ValueRule[] {
  const rules: ValueRule[] = [];
  for (const [pattern, names] of Object.entries(value as Record<string, AttrValue>)) {
    const line = lineOf(pattern);
    const problem = (message: string) => problems.push({ file, line, message: `values."${pattern}": ${message}` });
    const colon = pattern.indexOf(':');
    const [fileGlob, keyGlob] = colon < 0 ? [pattern, undefined] : [pattern.slice(0, colon), pattern.slice(colon + 1)];
    const why = globProblem(fileGlob, 'file') ?? (keyGlob === undefined ? undefined : keyGlob === '' ? 'the key glob after ":" is empty' : undefined);
    if (why) {
      problem(why);
      continue;
    }
    const holes = [...fileGlob.matchAll(PLACEHOLDER)].map((m) => m[1]);
    const unclosed = fileGlob.replace(PLACEHOLDER, '').search(/[{}]/) >= 0;
    if (unclosed || new Set(holes).size !== holes.length) {
      problem('a "{NAME}" of the file glob is unclosed or repeated');
      continue;
    }
    if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string')) {
      problem('must be a non-empty list of host, person and group names, such as ["db", "admins"]');
      continue;
    }
    const bad = (names as string[]).filter((n) => {
      const hole = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(n);
      return hole ? !holes.includes(hole[1]) : !RECIPIENT_NAME.test(n) || !known.has(n);
    });
    if (bad.length > 0) {
      problem(`${bad.map((n) => `"${n}"`).join(', ')}: no host, person or group of this file${holes.length > 0 ? ` nor a {NAME} of its glob (${holes.map((h) => `{${h}}`).join(', ')})` : ''}`);
      continue;
    }
    rules.push({ pattern, line, names: names as string[], file: globRegExp(fileGlob, true), ...(keyGlob !== undefined ? { key: globRegExp(keyGlob, false) } : {}) });
  }
  return rules;
}

/** The first rule matching a value at KEY of the data file `relative` (to data/, with "/"), if any. */
export function matchRule(rules: readonly ValueRule[], relative: string, key: string): RuleMatch | undefined {
  for (const rule of rules) {
    const m = rule.file.exec(relative);
    if (!m || (rule.key && !rule.key.test(key))) continue;
    const groups = m.groups ?? {};
    return { rule, names: [...new Set(rule.names.map((n) => n.replace(PLACEHOLDER, (_, h: string) => groups[h])))] };
  }
  return undefined;
}

/** Whether two lists of names are the same names (order and repeats aside). */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((n) => y.has(n));
}

export interface DecidedNames {
  /** The names the value is for. */
  names: string[];
  /** The rule that decided them; none: the value's label did (no rule matches it). */
  rule?: RuleMatch;
}

/** Whom the value at KEY of the data file `relative` (to data/) is for: its rule's names, else its label's. */
export function valueNames(recipients: { rules: readonly ValueRule[] }, relative: string, key: string, label: readonly string[]): DecidedNames {
  const rule = matchRule(recipients.rules, relative, key);
  return rule ? { names: rule.names, rule } : { names: [...label] };
}

/** What is wrong with a label whose rule does not name everyone it names, or undefined. */
export function labelProblem(recipients: { file: string }, decided: DecidedNames, label: readonly string[]): string | undefined {
  if (!decided.rule) return undefined;
  const extra = label.filter((name) => !decided.rule!.names.includes(name));
  if (extra.length === 0) return undefined;
  return `its label to=${label.join('+')} names ${extra.join(', ')}, which its rule does not (${recipients.file}:${decided.rule.rule.line}: "${decided.rule.rule.pattern}" = ${decided.rule.names.join(', ')}): the label is a copy that nothing authenticates, the rule decides`;
}
