// A description as a runner printed it is checked before govern relies on it: known fields only
// (a misspelt "requird" would silently check nothing), types govern knows, patterns that compile,
// defaults that are valid values, rules and autorequires that name the runner's own keys.
import { DESCRIPTION_FORMAT, RELATIVE_PATH_KINDS, VALUE_TYPES } from '../shared/description.js';
import { didYouMean } from '../shared/suggest.js';
import { ATTRIBUTE_KEY, RUNNER_NAME, SIGNAL_NAME } from '../shared/validate.js';
import { parseValue, regexProblem, wholeMatch } from '../shared/values.js';
import { templateProblems } from '../shared/written-paths.js';
import { ORDERING_KEYS } from '../state/resource.js';

type Json = Record<string, unknown>;

/** The fields of each part of a description (docs/runners.md documents each). */
export const TOP_FIELDS = ['govern_runner', 'help', 'persistent', 'name', 'keys', 'rules', 'signals', 'autorequire', 'writes', 'sources'];
export const VALUE_FIELDS = ['type', 'values', 'pattern', 'chars', 'what', 'min', 'max', 'clean', 'items'];
export const KEY_FIELDS = [...VALUE_FIELDS, 'help', 'required', 'default', 'sensitive', 'shown'];
export const WRITES_FIELDS = ['path', 'when'];
export const AUTOREQUIRE_FIELDS = ['runner', 'key', 'parent_of_name', 'name_or_parent', 'systemd_unit_of_name', 'same_key', 'every', 'reverse_when', 'reverse_when_other'];

/** Every problem of the document, each a phrase such as `keys.mode: unknown field "requird"`. */
export function checkDescription(doc: Json): string[] {
  const problems: string[] = [];
  const say = (where: string, message: string) => problems.push(`${where}: ${message}`);
  fields(doc, TOP_FIELDS, 'description', say);
  if (doc.govern_runner !== DESCRIPTION_FORMAT) say('govern_runner', `format ${JSON.stringify(doc.govern_runner)} is not one this govern knows (${DESCRIPTION_FORMAT})`);
  optional(doc, 'help', 'string', 'help', say);
  optional(doc, 'persistent', 'boolean', 'persistent', say);
  if (doc.name !== undefined) checkValueSpec(doc.name, 'name', [...VALUE_FIELDS, 'help'], say);

  const keys = doc.keys === undefined ? undefined : object(doc.keys, 'keys', say);
  for (const [key, spec] of Object.entries(keys ?? {})) {
    const where = `keys.${key}`;
    if (!ATTRIBUTE_KEY.test(key)) say(where, 'not a valid key name');
    if ((ORDERING_KEYS as readonly string[]).includes(key)) say(where, 'this key belongs to govern, not to a runner');
    if (!checkValueSpec(spec, where, KEY_FIELDS, say)) continue;
    const s = spec as Json;
    for (const flag of ['required', 'sensitive', 'shown']) optional(s, flag, 'boolean', `${where}.${flag}`, say);
    if (s.sensitive === true && s.shown === true) say(where, 'sensitive and shown at once: choose one');
    optional(s, 'help', 'string', `${where}.help`, say);
    if (s.default !== undefined) checkDefault(s, where, say);
  }
  const known = new Set(Object.keys(keys ?? {}));
  const keyList = (value: unknown, where: string): void => {
    if (!Array.isArray(value) || value.length === 0 || !value.every((k) => typeof k === 'string')) say(where, 'must be a list of key names');
    else for (const k of value as string[]) if (keys && !known.has(k)) say(where, `"${k}" is not one of its keys${didYouMean(k, known)}`);
  };
  const condition = (value: unknown, where: string) => {
    const c = object(value, where, say);
    for (const [k, allowed] of Object.entries(c ?? {})) {
      if (keys && !known.has(k)) say(where, `"${k}" is not one of its keys${didYouMean(k, known)}`);
      if (!Array.isArray(allowed) || !allowed.every((v) => typeof v === 'string')) say(`${where}.${k}`, 'must be a list of values');
    }
  };

  for (const [i, rule] of list(doc.rules, 'rules', say).entries()) {
    const where = `rules[${i}]`;
    const r = object(rule, where, say) ?? {};
    if ('exclusive' in r) keyList(r.exclusive, `${where}.exclusive`);
    else if ('requires' in r) {
      const needs = object(r.requires, `${where}.requires`, say);
      for (const [k, needed] of Object.entries(needs ?? {})) {
        keyList([k], `${where}.requires`);
        keyList(needed, `${where}.requires.${k}`);
      }
    } else if ('only_when' in r) {
      condition(r.only_when, `${where}.only_when`);
      keyList(r.keys, `${where}.keys`);
    } else if ('when' in r && 'require' in r) {
      condition(r.when, `${where}.when`);
      keyList(r.require, `${where}.require`);
    } else if ('when' in r && 'values' in r) {
      condition(r.when, `${where}.when`);
      condition(r.values, `${where}.values`);
    } else if ('when' in r && 'relative_paths' in r) {
      condition(r.when, `${where}.when`);
      for (const [k, kind] of Object.entries(object(r.relative_paths, `${where}.relative_paths`, say) ?? {})) {
        keyList([k], `${where}.relative_paths`);
        if (!(RELATIVE_PATH_KINDS as readonly unknown[]).includes(kind)) say(`${where}.relative_paths.${k}`, `must be one of ${RELATIVE_PATH_KINDS.join(', ')}`);
      }
    } else say(where, 'not a rule (exclusive; requires; when and require; only_when and keys; when and values; when and relative_paths)');
  }
  for (const [i, signal] of list(doc.signals, 'signals', say).entries()) {
    if (typeof signal !== 'string' || !SIGNAL_NAME.test(signal)) say(`signals[${i}]`, 'a signal is letters, digits, _ . and -');
  }
  for (const [i, entry] of list(doc.autorequire, 'autorequire', say).entries()) {
    const where = `autorequire[${i}]`;
    const a = object(entry, where, say) ?? {};
    fields(a, AUTOREQUIRE_FIELDS, where, say);
    if (typeof a.runner !== 'string' || !RUNNER_NAME.test(a.runner)) say(`${where}.runner`, 'must be a runner name');
    const ways = [a.key !== undefined, a.parent_of_name === true, a.name_or_parent === true, a.systemd_unit_of_name === true, a.same_key !== undefined, a.every === true].filter(Boolean).length;
    if (ways !== 1) say(where, 'give one of key, parent_of_name = true, name_or_parent = true, systemd_unit_of_name = true, same_key or every = true');
    if (a.key !== undefined) keyList([a.key], `${where}.key`);
    if (a.same_key !== undefined) keyList([a.same_key], `${where}.same_key`);
    for (const c of ['reverse_when', 'reverse_when_other']) if (a[c] !== undefined) condition(a[c], `${where}.${c}`);
  }
  for (const [i, entry] of list(doc.writes, 'writes', say).entries()) {
    const where = `writes[${i}]`;
    const w = object(entry, where, say) ?? {};
    fields(w, WRITES_FIELDS, where, say);
    if (typeof w.path !== 'string') say(`${where}.path`, 'must be a path template');
    else for (const problem of templateProblems(w.path, keys ? known : undefined)) say(`${where}.path`, problem);
    if (w.when !== undefined) condition(w.when, `${where}.when`);
  }
  for (const [i, source] of list(doc.sources, 'sources', say).entries()) {
    if (typeof source !== 'string' || !source.startsWith('/')) say(`sources[${i}]`, 'must be an absolute path');
  }
  return problems;
}

/** Checks a value's type and constraints; false when it is too broken to look further. */
function checkValueSpec(spec: unknown, where: string, allowed: string[], say: (where: string, message: string) => void): boolean {
  const s = object(spec, where, say);
  if (!s) return false;
  fields(s, allowed, where, say);
  if (typeof s.type !== 'string' || !(VALUE_TYPES as readonly string[]).includes(s.type)) {
    say(`${where}.type`, `must be one of ${VALUE_TYPES.join(', ')}${typeof s.type === 'string' ? didYouMean(s.type, VALUE_TYPES) : ''}`);
    return false;
  }
  if (s.values !== undefined && (!Array.isArray(s.values) || !s.values.every((v) => typeof v === 'string'))) say(`${where}.values`, 'must be a list of strings');
  if (s.type === 'enum' && !Array.isArray(s.values)) say(`${where}.values`, 'an enum needs its values');
  for (const [field, compile] of [['pattern', (p: string) => wholeMatch(p)], ['chars', (c: string) => new RegExp(`[${c}]`, 'u')]] as const) {
    if (s[field] === undefined) continue;
    try {
      if (typeof s[field] !== 'string') throw new Error('not a string');
      compile(s[field] as string);
    } catch (e) {
      say(`${where}.${field}`, `not a valid regular expression (${regexProblem(e)})`);
    }
  }
  for (const field of ['min', 'max']) optional(s, field, 'number', `${where}.${field}`, say);
  optional(s, 'clean', 'boolean', `${where}.clean`, say);
  optional(s, 'what', 'string', `${where}.what`, say);
  if (s.type === 'list') {
    if (s.items !== undefined && checkValueSpec(s.items, `${where}.items`, VALUE_FIELDS, say) && (s.items as Json).type === 'list') {
      say(`${where}.items`, 'a list of lists cannot be passed as arguments');
    }
  } else if (s.items !== undefined) say(`${where}.items`, 'only a list has items');
  return true;
}

function checkDefault(spec: Json, where: string, say: (where: string, message: string) => void): void {
  const values = Array.isArray(spec.default) ? spec.default : [spec.default];
  if (Array.isArray(spec.default) && spec.type !== 'list') return say(`${where}.default`, 'only a list takes a list');
  for (const value of values) {
    if (!['string', 'number', 'boolean'].includes(typeof value)) return say(`${where}.default`, 'must be a string, a number, a boolean or a list of them');
    const parsed = parseValue(spec as never, String(value));
    if (!parsed.ok) say(`${where}.default`, `${JSON.stringify(value)} is not ${parsed.expected}`);
  }
}

function fields(obj: Json, allowed: string[], where: string, say: (where: string, message: string) => void): void {
  for (const field of Object.keys(obj)) if (!allowed.includes(field)) say(where, `unknown field "${field}"${didYouMean(field, allowed)}`);
}

function optional(obj: Json, field: string, type: string, where: string, say: (where: string, message: string) => void): void {
  if (obj[field] !== undefined && typeof obj[field] !== type) say(where, `must be a ${type}`);
}

function object(value: unknown, where: string, say: (where: string, message: string) => void): Json | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Json;
  say(where, 'must be an object');
  return undefined;
}

function list(value: unknown, where: string, say: (where: string, message: string) => void): unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  say(where, 'must be a list');
  return [];
}
