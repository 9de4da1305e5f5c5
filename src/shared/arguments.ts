// A resource's arguments checked against its runner's description: the name, every key and value,
// and the cross-key rules, with every problem found in one pass. The core runs it on each resource
// before anything is applied (and knows the line of each key); the runner kit runs it on the
// arguments it receives, and hands the runner the values read by their types.
import type { Condition, KeySpec, RunnerDescription, Rule } from './description.js';
import { encodeValues, type Params } from './protocol.js';
import { closest } from './suggest.js';
import { parseValue, type Parsed, type Value } from './values.js';

export interface ArgumentProblem {
  /** The key the problem is about; undefined for the resource as a whole (its name, a missing key). */
  key?: string;
  message: string;
}

export interface CheckedArguments {
  /** Every described key: its value read by its type, its default, or undefined (a list: []). */
  values: Record<string, Value | undefined>;
  problems: ArgumentProblem[];
}

/** A described key with its default as the runner receives it (texts) and reads it, worked out once. */
interface PreparedKey {
  readonly key: string;
  readonly spec: KeySpec;
  readonly defaultTexts?: readonly string[];
  /** The default read by the key's type: filled the first time a resource leaves the key out. */
  defaultRead?: { values: Value[]; problems: string[] };
}

/** The parts of a description every resource is checked with: the same for each of its resources. */
interface PreparedDescription {
  readonly keys: readonly PreparedKey[];
  readonly byKey: ReadonlyMap<string, PreparedKey>;
  readonly names: readonly string[];
}

/** Other tools' ordering keys, which govern spells differently (its own are the core's: never a runner's key). */
const ORDERING_HABITS: Record<string, string> = {
  require: 'did you mean "after"? govern orders a resource after others with after = ["pkg:nginx"], Puppet\'s require',
  requires: 'did you mean "after"? govern orders a resource after others with after = ["pkg:nginx"]',
  depends_on: 'did you mean "after"? govern orders a resource after others with after = ["pkg:nginx"]',
};

const preparedDescriptions = new WeakMap<RunnerDescription, PreparedDescription>();

function prepare(description: RunnerDescription): PreparedDescription {
  let found = preparedDescriptions.get(description);
  if (!found) {
    const keys = Object.entries(description.keys ?? {}).map(
      ([key, spec]): PreparedKey => ({ key, spec, defaultTexts: spec.default === undefined ? undefined : encodeValues(spec.default) }),
    );
    found = { keys, byKey: new Map(keys.map((k) => [k.key, k])), names: keys.map((k) => k.key) };
    preparedDescriptions.set(description, found);
  }
  return found;
}

/** Reads a key's texts by its type: the values, and a message for each text that is not one. */
function readTexts(key: string, spec: KeySpec, texts: readonly string[]): { values: Value[]; problems: string[] } {
  const values: Value[] = [];
  const problems: string[] = [];
  for (const text of texts) {
    const parsed = parseValue(spec, text);
    if (parsed.ok) values.push(parsed.value);
    else problems.push(notValid(key, text, parsed, spec.sensitive ?? false));
  }
  return { values, problems };
}

/** `runner` names the runner in messages ("file takes ensure, ..."). */
export function checkArguments(runner: string, description: RunnerDescription, name: string, params: Params): CheckedArguments {
  const problems: ArgumentProblem[] = [];
  const values: Record<string, Value | undefined> = {};

  if (description.name) {
    const parsed = parseValue(description.name, name);
    if (!parsed.ok) problems.push({ message: notValid('name', name, parsed, false) });
  }
  if (!description.keys) {
    for (const key of params.keys()) values[key] = params.count(key) > 1 ? params.list(key) : params.list(key)[0];
    return { values, problems };
  }

  const { keys, byKey, names } = prepare(description);
  const broken = new Set<string>();
  for (const key of params.keys()) {
    if (byKey.has(key)) continue;
    const near = closest(key, names);
    const habit = ORDERING_HABITS[key];
    const hint = near ? `(did you mean "${near}"?)` : habit ? `(${habit})` : `(${runner} takes ${names.length > 0 ? names.join(', ') : 'no keys'})`;
    problems.push({ key, message: `unknown key "${key}" ${hint}` });
  }
  for (const entry of keys) {
    const { key, spec } = entry;
    const given = params.texts(key);
    if (given === undefined && entry.defaultTexts === undefined) {
      if (spec.required) {
        problems.push({ message: `${key} is required${spec.type === 'enum' ? ` (${spec.values?.join(', ')})` : ''}` });
        broken.add(key);
      }
      values[key] = spec.type === 'list' ? [] : undefined;
      continue;
    }
    const texts = given ?? entry.defaultTexts!;
    if (spec.type !== 'list' && texts.length > 1) {
      problems.push({ key, message: `${key} is given ${texts.length} times; it takes one value` });
      broken.add(key);
      continue;
    }
    const read = given ? readTexts(key, spec, given) : (entry.defaultRead ??= readTexts(key, spec, texts));
    for (const message of read.problems) problems.push({ key, message });
    if (read.problems.length > 0) broken.add(key);
    // A default's values are shared by every resource: each one gets its own copy of a list or map.
    const own = given ? read.values : read.values.map((v) => (typeof v === 'object' ? structuredClone(v) : v));
    values[key] = spec.type === 'list' ? own : own[0];
  }
  for (const rule of description.rules ?? []) problems.push(...checkRule(rule, params, byKey, broken));
  return { values, problems };
}

/** `mode "0888" is not an octal mode (character "8" is not a digit 0-7)`; a secret value is not shown. */
function notValid(key: string, text: string, parsed: Extract<Parsed, { ok: false }>, sensitive: boolean): string {
  const shown = sensitive ? '' : ` ${JSON.stringify(text)}`;
  const detail = parsed.detail ? ` (${parsed.detail})` : '';
  const suggestion = parsed.suggestion && !sensitive ? parsed.suggestion : '';
  return `${key}${shown} is not ${parsed.expected}${detail}${suggestion}`;
}

/** The text a key counts with in a condition: as given, or its default; undefined when neither. */
function effective(key: string, params: Params, keys: ReadonlyMap<string, PreparedKey>): string | undefined {
  const given = params.texts(key);
  if (given) return given.length === 1 ? given[0] : undefined;
  return keys.get(key)?.defaultTexts?.[0];
}

/** Whether every key of the condition has one of its values (a key without a value does not). */
export function holds(condition: Condition, valueOf: (key: string) => string | undefined): boolean {
  return Object.entries(condition).every(([key, allowed]) => {
    const value = valueOf(key);
    return value !== undefined && allowed.includes(value);
  });
}

/** `ensure = "present"`, `ensure = "present" or "directory"`. */
export function describeCondition(condition: Condition): string {
  return Object.entries(condition)
    .map(([key, allowed]) => `${key} = ${allowed.map((v) => JSON.stringify(v)).join(' or ')}`)
    .join(' and ');
}

/** The condition's keys with the values they have: `ensure = "present"`. */
function actualValues(condition: Condition, valueOf: (key: string) => string | undefined): string {
  return describeCondition(Object.fromEntries(Object.keys(condition).map((key) => [key, [valueOf(key) ?? '']])));
}

function checkRule(rule: Rule, params: Params, keys: ReadonlyMap<string, PreparedKey>, broken: Set<string>): ArgumentProblem[] {
  const valueOf = (key: string) => effective(key, params, keys);
  const conditionBroken = (condition: Condition) => Object.keys(condition).some((key) => broken.has(key));
  if ('requires' in rule) {
    return Object.entries(rule.requires)
      .filter(([key]) => params.has(key))
      .flatMap(([key, needed]) => {
        const missing = needed.filter((other) => !params.has(other));
        return missing.length === 0 ? [] : [{ key, message: `${key} needs ${listWords(missing)}` }];
      });
  }
  if ('exclusive' in rule) {
    const given = rule.exclusive.filter((key) => params.has(key));
    if (given.length < 2) return [];
    return [{ key: given[1], message: `give only one of ${given.join(' and ')}, not both${given.length > 2 ? ' (or more)' : ''}` }];
  }
  if ('only_when' in rule) {
    if (conditionBroken(rule.only_when) || holds(rule.only_when, valueOf)) return [];
    const actual = actualValues(rule.only_when, valueOf);
    return rule.keys.filter((key) => params.has(key)).map((key) => ({ key, message: `${key} is only for ${describeCondition(rule.only_when)}, not ${actual}` }));
  }
  // Judged by govern against the state tree while planning (describe/check-relative-paths.ts): a
  // runner called by hand has no tree, and checks what it reads when it reads it.
  if ('relative_paths' in rule) return [];
  if (conditionBroken(rule.when) || !holds(rule.when, valueOf)) return [];
  if ('require' in rule) {
    const missing = rule.require.filter((key) => !params.has(key));
    if (missing.length === 0) return [];
    return [{ message: `${listWords(missing)} ${missing.length > 1 ? 'are' : 'is'} required for ${actualValues(rule.when, valueOf)}` }];
  }
  const problems: ArgumentProblem[] = [];
  for (const [key, allowed] of Object.entries(rule.values)) {
    const value = params.has(key) ? valueOf(key) : undefined;
    if (value === undefined || broken.has(key) || allowed.includes(value)) continue;
    problems.push({
      key,
      message: `${key} must be ${allowed.map((v) => JSON.stringify(v)).join(' or ')} when ${describeCondition(rule.when)}, not ${JSON.stringify(value)}`,
    });
  }
  return problems;
}

/** "a", "a and b", "a, b and c". */
export function listWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * Why a runner refuses a signal, or undefined when it accepts it (or does not say which it accepts):
 * `exec does not accept the signal "restart" (it accepts refresh)`.
 */
export function refusedSignal(runner: string, description: RunnerDescription | undefined, signal: string): string | undefined {
  const accepted = description?.signals;
  if (!accepted || accepted.includes(signal)) return undefined;
  const near = closest(signal, accepted);
  const which = accepted.length > 0 ? `it accepts ${accepted.join(', ')}` : 'it accepts no signal';
  return `${runner} does not accept the signal "${signal}" (${near ? `did you mean "${near}"? ` : ''}${which})`;
}
