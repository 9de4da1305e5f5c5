// The tree's checks: `check "NAME" { ... }` blocks in tests/*.hcl, one kind per block by its key
// (docs/test.md). Read and validated before any run, every problem at once with its file:line;
// tests/ is not part of the state tree, so govern run never reads these files.
import fs from 'node:fs';
import path from 'node:path';
import { parseHcl } from '../hcl/parse.js';
import { checkOf, type Check, type CheckProblem } from '../checks/kinds.js';
import { UserError } from '../shared/errors.js';

export type { Check, CheckKind } from '../checks/kinds.js';

const MAX_FILES = 200;
const MAX_BYTES = 1024 * 1024;
const MAX_CHECKS = 1000;

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
    const found: CheckProblem[] = [];
    const check = checkOf(item, where, found);
    if (check) checks.push(check);
    problems.push(...found.map((p) => `${shown}:${p.line}: ${p.message}`));
  }
  return checks;
}

