// The directory of govern's locks (the run lock, the package lock). Lock files are opened with
// O_CREAT and flock(1) follows symlinks, so in a world-writable place (/var/lock is /run/lock, mode
// 1777) any user could make root create a file elsewhere, or hold a lock and stop govern: the
// directory is root's alone, and checked before every use, wherever GOVERN_LOCK_DIR puts it.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from './errors.js';
import { ownedAndPrivate } from './trust.js';

export const DEFAULT_LOCK_DIR = '/run/govern';

/** GOVERN_LOCK_DIR (an absolute path), else /run/govern: a test suite or a second installation keeps its own locks. */
export function lockDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.GOVERN_LOCK_DIR;
  if (given === undefined || given === '') return DEFAULT_LOCK_DIR;
  if (!path.isAbsolute(given)) throw new UserError(`GOVERN_LOCK_DIR must be an absolute path, not ${JSON.stringify(given)}`);
  return path.resolve(given);
}

/** Creates `dir` 0700 when missing; refuses it unless it is a directory owned by us that no one else can write. */
export function ensureLockDir(dir: string = lockDir()): void {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new UserError(`cannot create the lock directory ${dir}: ${(e as Error).message}`);
  }
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || !ownedAndPrivate(st)) {
    throw new UserError(`refusing the lock directory ${dir}: it must be a directory owned by this user that no one else can write`);
  }
}
