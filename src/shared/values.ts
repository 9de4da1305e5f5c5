// One value of a runner's argument, as it travels (`key=value`: always text), read by the type its
// description gives it. The core checks state files with it and the runner kit reads its arguments
// with it, so both reach the same verdict on the same text.
import { parseDuration } from './duration.js';
import type { AttrValue } from './protocol.js';
import type { ValueSpec } from './description.js';
import { matchesWhole, matchStopped, wholePattern } from './bounded-match.js';
import { didYouMean } from './suggest.js';
import { charsProblem } from './validate.js';

/** A value as the runner reads it: text, a number (integer, mode, duration in ms), a boolean, a list or a map. */
export type Value = string | number | boolean | Value[] | { [key: string]: AttrValue };

/** The value, or why it is not one: "is not an octal mode", with details and a suggestion. */
export type Parsed = { ok: true; value: Value } | { ok: false; expected: string; detail?: string; suggestion?: string };

const DEFAULT_MAX_MODE = 0o7777;

/** Reads a scalar (not a list: the caller reads each element with `items`). */
export function parseValue(spec: ValueSpec, text: string): Parsed {
  if (text.includes('\0')) return { ok: false, expected: expected(spec), detail: 'it contains a NUL character' };
  switch (spec.type) {
    case 'string':
    case 'path':
      return parseText(spec, text);
    case 'enum':
      return (spec.values ?? []).includes(text) ? { ok: true, value: text } : fail(spec, undefined, didYouMean(text, spec.values ?? []));
    case 'integer':
      return parseInteger(spec, text);
    case 'boolean':
      return text === 'true' || text === 'false' ? { ok: true, value: text === 'true' } : fail(spec);
    case 'mode':
      return parseMode(spec, text);
    case 'duration':
      try {
        return { ok: true, value: parseDuration(text) };
      } catch {
        return fail(spec);
      }
    case 'regex':
      try {
        new RegExp(text, 'u');
        return { ok: true, value: text };
      } catch (e) {
        return fail(spec, regexProblem(e));
      }
    case 'map':
      return parseMap(spec, text);
    case 'list':
      return spec.items ? parseValue(spec.items, text) : { ok: true, value: text };
  }
}

function fail(spec: ValueSpec, detail?: string, suggestion?: string): Parsed {
  return { ok: false, expected: expected(spec), detail, suggestion: suggestion || undefined };
}

/** The words for a valid value: "an octal mode", "one of present, absent", "an integer from 0 to 255". */
export function expected(spec: ValueSpec): string {
  if (spec.what !== undefined) return spec.what;
  switch (spec.type) {
    case 'string':
      return spec.values ? `one of ${spec.values.join(', ')}` : 'valid';
    case 'path':
      return spec.clean ? 'a clean absolute path' : 'an absolute path';
    case 'enum':
      return `one of ${(spec.values ?? []).join(', ')}`;
    case 'integer':
      if (spec.min !== undefined && spec.max !== undefined) return `an integer from ${spec.min} to ${spec.max}`;
      if (spec.min !== undefined) return `an integer of at least ${spec.min}`;
      if (spec.max !== undefined) return `an integer of at most ${spec.max}`;
      return 'an integer';
    case 'boolean':
      return 'true or false';
    case 'mode':
      return 'an octal mode';
    case 'duration':
      return 'a duration such as 30s, 5m, 1h30m or a number of seconds';
    case 'regex':
      return 'a regular expression';
    case 'map':
      return 'a map';
    case 'list':
      return spec.items ? expected(spec.items) : 'a list';
  }
}

function parseText(spec: ValueSpec, text: string): Parsed {
  if (spec.values?.includes(text)) return { ok: true, value: text };
  if (spec.type === 'path') {
    const problem = pathProblem(text, spec.clean ?? false);
    if (problem) return fail(spec, problem);
  }
  if (spec.chars !== undefined) {
    const problem = charsOf(spec.chars).all.test(text) ? undefined : charsProblem(charsOf(spec.chars).one, text);
    if (problem) return fail(spec, problem, spec.values ? didYouMean(text, spec.values) : undefined);
  }
  if (spec.pattern !== undefined) {
    const matches = matchesWhole(spec.pattern, text);
    if (matches === undefined) return fail(spec, matchStopped(spec.pattern, text));
    if (!matches) return fail(spec, undefined, spec.values ? didYouMean(text, spec.values) : undefined);
  }
  if (spec.values && spec.pattern === undefined && spec.chars === undefined) return fail(spec, undefined, didYouMean(text, spec.values));
  return { ok: true, value: text };
}

const classes = new Map<string, { one: RegExp; all: RegExp }>();

/** A description's character class: one character of it, and a whole valid value (no leading "-", not `.` or `..`). */
function charsOf(chars: string): { one: RegExp; all: RegExp } {
  let re = classes.get(chars);
  if (!re) {
    re = { one: new RegExp(`[${chars}]`, 'u'), all: new RegExp(`^(?!-)(?!\\.\\.?$)[${chars}]+$`, 'u') };
    classes.set(chars, re);
  }
  return re;
}

/** A description's pattern, matched against the whole value; `.` matches line breaks too. */
export function wholeMatch(pattern: string): RegExp {
  return wholePattern(pattern);
}

const DOT_COMPONENT = /\/(\.\.?)(?=\/|$)/;

/** Absolute; clean: it names exactly one place (no `.`, `..`, `//` or trailing `/`). */
function pathProblem(text: string, clean: boolean): string | undefined {
  if (!text.startsWith('/')) return 'it must start with "/"';
  if (!clean || text === '/') return undefined;
  if (text.endsWith('/')) return 'it must not end with "/"';
  if (text.includes('//')) return 'it must not contain "//"';
  const dots = DOT_COMPONENT.exec(text);
  return dots ? `it contains a "${dots[1]}" component` : undefined;
}

function parseInteger(spec: ValueSpec, text: string): Parsed {
  if (!/^-?[0-9]+$/.test(text)) return fail(spec);
  const value = Number(text);
  if (!Number.isSafeInteger(value) || (spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) return fail(spec);
  return { ok: true, value };
}

/** "0644", "644", "0o755", "0O700": octal permission bits. */
function parseMode(spec: ValueSpec, text: string): Parsed {
  const digits = /^0[oO]/.test(text) ? text.slice(2) : text;
  if (digits === '') return fail(spec, 'it has no digits');
  for (const ch of digits) if (ch < '0' || ch > '7') return fail(spec, `character ${JSON.stringify(ch)} is not a digit 0-7`);
  const value = parseInt(digits, 8);
  const max = spec.max ?? DEFAULT_MAX_MODE;
  if (value > max) return fail(spec, `it is above ${formatMode(max)}${max === 0o777 ? ': setuid, setgid and sticky bits cannot be set here' : ''}`);
  return { ok: true, value };
}

/** 0o644 -> "0644". */
export function formatMode(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}

function parseMap(spec: ValueSpec, text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail(spec);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(spec);
  return { ok: true, value: value as { [key: string]: AttrValue } };
}

/**
 * Why a regular expression does not compile ("Unterminated group"), without the expression and
 * flags V8 puts before it, which differ between Node versions.
 */
export function regexProblem(e: unknown): string {
  return (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
}
