// The tree's checks: `check "NAME" { ... }` blocks in tests/*.hcl, one kind per block by its key
// (docs/test.md). Read and validated before any run, every problem at once with its file:line;
// tests/ is not part of the state tree, so govern run never reads these files.
import fs from 'node:fs';
import path from 'node:path';
import { parseHcl } from '../hcl/parse.js';
import type { HclBlock } from '../hcl/syntax.js';
import { UserError } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';

export type CheckKind = 'command' | 'file' | 'port' | 'service' | 'package' | 'url';

export interface Check {
  name: string;
  kind: CheckKind;
  /** The kind's own key and the keys that go with it, as written. */
  keys: Record<string, string | number>;
  /** `tests/web.hcl:3`, relative to the tree. */
  where: string;
}

/** The keys each kind takes besides its own, and whether a value is a number. */
const KINDS: Record<CheckKind, { extra: string[]; numeric: string[] }> = {
  command: { extra: ['user'], numeric: [] },
  file: { extra: ['contains', 'mode'], numeric: [] },
  port: { extra: [], numeric: ['port'] },
  service: { extra: [], numeric: [] },
  package: { extra: ['version'], numeric: [] },
  url: { extra: ['status'], numeric: ['status'] },
};

const MAX_FILES = 200;
const MAX_BYTES = 1024 * 1024;
const MAX_CHECKS = 1000;
/** A user, service or package name reaches a command line: it must not read as an option or a path. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+:@-]{0,127}$/;

/** The checks of the tree at root, in file then source order; none when it has no tests/ directory. */
export function readChecks(root: string): Check[] {
  const dir = path.join(root, 'tests');
  let names: string[];
  try {
    if (!fs.lstatSync(dir).isDirectory()) throw new UserError(`${path.relative(root, dir)}: not a directory (the tree's checks are tests/*.hcl)`);
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.hcl')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e instanceof UserError ? e : new UserError(`cannot read ${dir}: ${(e as Error).message}`);
  }
  if (names.length > MAX_FILES) throw new UserError(`${dir}: ${names.length} files, more than the ${MAX_FILES} govern test reads`);
  const problems: string[] = [];
  const checks: Check[] = [];
  for (const name of names) {
    const shown = path.join('tests', name);
    try {
      checks.push(...checksOf(shown, readBounded(path.join(dir, name), shown), problems));
    } catch (e) {
      if (e instanceof UserError) problems.push(...e.message.split('\n'));
      else problems.push(`${shown}: cannot read it: ${(e as Error).message}`);
    }
  }
  if (checks.length > MAX_CHECKS) problems.push(`tests/: ${checks.length} checks, more than the ${MAX_CHECKS} govern test runs`);
  const seen = new Map<string, string>();
  for (const c of checks) {
    const first = seen.get(c.name);
    if (first !== undefined) problems.push(`${c.where}: check "${c.name}" is already declared at ${first}`);
    else seen.set(c.name, c.where);
  }
  if (problems.length > 0) throw new UserError(problems.join('\n'));
  return checks;
}

/** A regular file, never through a link (another user could swap it), at most MAX_BYTES. */
function readBounded(file: string, shown: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new UserError(`${shown}: not a regular file`);
    if (st.size > MAX_BYTES) throw new UserError(`${shown}: ${st.size} bytes, more than the ${MAX_BYTES} a checks file may have`);
    return fs.readFileSync(fd, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new UserError(`${shown}: a symbolic link (checks files are read only as regular files)`);
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}

function checksOf(shown: string, text: string, problems: string[]): Check[] {
  const checks: Check[] = [];
  for (const item of parseHcl(shown, text).items) {
    const where = `${shown}:${item.at.line}`;
    if (item.kind !== 'block' || item.type !== 'check') {
      problems.push(`${where}: only check "NAME" { ... } blocks go in tests/ (found ${item.kind === 'block' ? `a ${item.type} block` : `the attribute ${item.name}`})`);
      continue;
    }
    const check = checkOf(item, where, problems);
    if (check) checks.push(check);
  }
  return checks;
}

function checkOf(block: HclBlock, where: string, problems: string[]): Check | undefined {
  const start = problems.length;
  const fail = (message: string) => problems.push(`${where}: ${message}`);
  if (block.labels.length !== 1 || block.labels[0] === '') fail('a check has one name: check "NAME" { ... }');
  const name = block.labels[0] ?? '';
  const keys: Record<string, AttrValue> = {};
  for (const item of block.body) {
    if (item.kind === 'block') fail(`check "${name}": no block goes inside a check (found ${item.type})`);
    else keys[item.name] = item.value;
  }
  const kinds = (Object.keys(KINDS) as CheckKind[]).filter((k) => k in keys);
  if (kinds.length !== 1) {
    fail(`check "${name}": ${kinds.length === 0 ? 'says nothing to check' : `has ${kinds.join(' and ')}`}: give one of ${Object.keys(KINDS).join(', ')}`);
    return undefined;
  }
  const kind = kinds[0];
  const allowed = new Set([kind, ...KINDS[kind].extra]);
  const values: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(keys)) {
    if (!allowed.has(key)) {
      fail(`check "${name}": ${kind} takes ${[...allowed].join(', ')}, not ${key}`);
      continue;
    }
    const numeric = KINDS[kind].numeric.includes(key);
    if (numeric ? typeof value === 'number' && Number.isInteger(value) : typeof value === 'string') values[key] = value as string | number;
    else fail(`check "${name}": ${key} is ${numeric ? 'a whole number' : 'a string'}`);
  }
  if (problems.length === start) validate(kind, values, (m) => fail(`check "${name}": ${m}`));
  return problems.length === start ? { name, kind, keys: values, where } : undefined;
}

function validate(kind: CheckKind, v: Record<string, string | number>, fail: (message: string) => void): void {
  const text = (key: string) => (typeof v[key] === 'string' ? (v[key] as string) : undefined);
  if (kind === 'file' && !path.isAbsolute(text('file') ?? '')) fail('file is an absolute path');
  if (kind === 'file' && text('mode') !== undefined && !/^0?[0-7]{3,4}$/.test(text('mode')!)) fail(`mode is octal, as "0644", not ${JSON.stringify(v.mode)}`);
  if (kind === 'port' && ((v.port as number) < 1 || (v.port as number) > 65535)) fail(`port is from 1 to 65535, not ${v.port}`);
  if (kind === 'url' && !/^https?:\/\//.test(text('url') ?? '')) fail('url is an http:// or https:// address');
  if (kind === 'url' && v.status !== undefined && ((v.status as number) < 100 || (v.status as number) > 599)) fail(`status is an HTTP status, not ${v.status}`);
  if (kind === 'command' && (text('command') ?? '') === '') fail('command is empty');
  for (const key of ['user', 'service', 'package'] as const) {
    const value = text(key);
    if (value !== undefined && (kind === key || key === 'user') && !NAME.test(value)) fail(`${key} ${JSON.stringify(value)} is not a name (letters, digits and _.+:@-, not starting with -)`);
  }
}
