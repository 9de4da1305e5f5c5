// The kinds of check govern test's `check` blocks (tests/*.hcl, docs/test.md) and a state tree's
// `health` blocks (docs/rollout.md) share: one kind per block by its key, validated with every
// problem at once. A health check also takes `timeout` and `retries`.
import path from 'node:path';
import type { HclBlock } from '../hcl/syntax.js';
import { parseDuration } from '../shared/duration.js';
import { closest } from '../shared/suggest.js';
import type { AttrValue } from '../shared/protocol.js';

export type CheckKind = 'command' | 'file' | 'port' | 'service' | 'package' | 'url';

export interface Check {
  name: string;
  kind: CheckKind;
  /** The kind's own key and the keys that go with it, as written. */
  keys: Record<string, string | number>;
  /** `tests/web.hcl:3`, relative to the tree (a health check: its state file as planning names it). */
  where: string;
  /** A health check's: how long one attempt may take, and how many more attempts a failure gets. */
  timeoutMs?: number;
  retries?: number;
}

/** `check` in tests/, `health` in state files: the block's type, in messages. */
export type CheckBlock = 'check' | 'health';

export const HEALTH_BLOCK = 'health';
const HEALTH_KEYS = ['timeout', 'retries'];
const MAX_RETRIES = 100;
const MAX_TIMEOUT_MS = 3_600_000;

/** The keys each kind takes besides its own, and whether a value is a number. */
const KINDS: Record<CheckKind, { extra: string[]; numeric: string[] }> = {
  command: { extra: ['user'], numeric: [] },
  file: { extra: ['contains', 'mode'], numeric: [] },
  port: { extra: [], numeric: ['port'] },
  service: { extra: [], numeric: [] },
  package: { extra: ['version'], numeric: [] },
  url: { extra: ['status'], numeric: ['status'] },
};

/** What a health block takes: each kind's keys with the kind they belong to, then the tuning keys. */
export function healthKeys(): { name: string; kind?: CheckKind }[] {
  const seen = new Set<string>();
  const keys: { name: string; kind?: CheckKind }[] = [];
  for (const kind of Object.keys(KINDS) as CheckKind[]) {
    for (const name of [kind, ...KINDS[kind].extra]) if (!seen.has(name)) keys.push({ name, ...(name === kind ? {} : { kind }) }), seen.add(name);
  }
  return [...keys, ...HEALTH_KEYS.map((name) => ({ name }))];
}

/** A user, service or package name reaches a command line: it must not read as an option or a path. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+:@-]{0,127}$/;

/** A problem of a check block, at a line of the text parsed: the key's when it is one key's. */
export interface CheckProblem {
  line: number;
  message: string;
}

/** The check a block declares (`where`: the block's place), or undefined with its problems added to problems. */
export function checkOf(block: HclBlock, where: string, problems: CheckProblem[], type: CheckBlock = 'check'): Check | undefined {
  const start = problems.length;
  const lineOf = new Map<string, number>();
  const fail = (message: string, key?: string) => problems.push({ line: (key !== undefined ? lineOf.get(key) : undefined) ?? block.at.line, message });
  if (block.labels.length !== 1 || block.labels[0] === '') fail(`a ${type} check has one name: ${type} "NAME" { ... }`);
  const name = block.labels[0] ?? '';
  const keys: Record<string, AttrValue> = {};
  const tuning: Record<string, AttrValue> = {};
  for (const item of block.body) {
    if (item.kind === 'block') {
      problems.push({ line: item.at.line, message: `${type} "${name}": no block goes inside a check (found ${item.type})` });
      continue;
    }
    lineOf.set(item.name, item.at.line);
    if (type === 'health' && HEALTH_KEYS.includes(item.name)) tuning[item.name] = item.value;
    else keys[item.name] = item.value;
  }
  const tuned = type === 'health' ? healthTuning(tuning, (key, m) => fail(`${type} "${name}": ${m}`, key)) : {};
  const kinds = (Object.keys(KINDS) as CheckKind[]).filter((k) => k in keys);
  if (kinds.length !== 1) {
    fail(`${type} "${name}": ${kinds.length === 0 ? 'says nothing to check' : `has ${kinds.join(' and ')}`}: give one of ${Object.keys(KINDS).join(', ')}`);
    return undefined;
  }
  const kind = kinds[0];
  const allowed = new Set([kind, ...KINDS[kind].extra]);
  const values: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(keys)) {
    if (!allowed.has(key)) {
      const near = closest(key, allowed);
      fail(`${type} "${name}": ${kind} takes ${[...allowed].join(', ')}, not ${key}${near ? ` (did you mean "${near}"?)` : ''}`, key);
      continue;
    }
    const numeric = KINDS[kind].numeric.includes(key);
    if (numeric ? typeof value === 'number' && Number.isInteger(value) : typeof value === 'string') values[key] = value as string | number;
    else fail(`${type} "${name}": ${key} is ${numeric ? 'a whole number' : 'a string'}`, key);
  }
  if (problems.length === start) validate(kind, values, (key, m) => fail(`${type} "${name}": ${m}`, key));
  return problems.length === start ? { name, kind, keys: values, where, ...tuned } : undefined;
}

/** Each problem is one key's (`fail(key, message)`). */
function validate(kind: CheckKind, v: Record<string, string | number>, fail: (key: string, message: string) => void): void {
  const text = (key: string) => (typeof v[key] === 'string' ? (v[key] as string) : undefined);
  if (kind === 'file' && !path.isAbsolute(text('file') ?? '')) fail('file', 'file is an absolute path');
  if (kind === 'file' && text('mode') !== undefined && !/^0?[0-7]{3,4}$/.test(text('mode')!)) fail('mode', `mode is octal, as "0644", not ${JSON.stringify(v.mode)}`);
  if (kind === 'port' && ((v.port as number) < 1 || (v.port as number) > 65535)) fail('port', `port is from 1 to 65535, not ${v.port}`);
  if (kind === 'url' && !/^https?:\/\//.test(text('url') ?? '')) fail('url', 'url is an http:// or https:// address');
  if (kind === 'url' && v.status !== undefined && ((v.status as number) < 100 || (v.status as number) > 599)) fail('status', `status is an HTTP status, not ${v.status}`);
  if (kind === 'command' && (text('command') ?? '') === '') fail('command', 'command is empty');
  for (const key of ['user', 'service', 'package'] as const) {
    const value = text(key);
    if (value !== undefined && (kind === key || key === 'user') && !NAME.test(value)) fail(key, `${key} ${JSON.stringify(value)} is not a name (letters, digits and _.+:@-, not starting with -)`);
  }
}

/** A health check's `timeout` (a duration, "10s") and `retries` (a whole number). */
function healthTuning(t: Record<string, AttrValue>, fail: (key: string, message: string) => void): { timeoutMs?: number; retries?: number } {
  const out: { timeoutMs?: number; retries?: number } = {};
  if (t.timeout !== undefined) {
    let ms = NaN;
    try {
      ms = typeof t.timeout === 'string' ? parseDuration(t.timeout) : NaN;
    } catch {
      // told below
    }
    if (!(ms > 0 && ms <= MAX_TIMEOUT_MS)) fail('timeout', `timeout is a duration from 1ms to 1h, such as "10s", not ${JSON.stringify(t.timeout)}`);
    else out.timeoutMs = ms;
  }
  if (t.retries !== undefined) {
    if (typeof t.retries !== 'number' || !Number.isInteger(t.retries) || t.retries < 0 || t.retries > MAX_RETRIES) fail('retries', `retries is a whole number from 0 to ${MAX_RETRIES}, not ${JSON.stringify(t.retries)}`);
    else out.retries = t.retries;
  }
  return out;
}
