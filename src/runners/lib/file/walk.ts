// The held-handle walk every file operation goes through: a managed path's parent directory is
// resolved once by chase (links followed only as CHASE_SAFE allows) and held open, and every system
// call reaches the path through that handle, never by its name again (docs/file.md, "Symbolic links
// on the way"). The path itself is never followed: lstat, and O_NOFOLLOW when it is opened.
import fs, { constants as C, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import nodePath from 'node:path';
import { chase, type HeldDirectory } from '../../../shared/chase.js';
import { UserError } from '../../../shared/errors.js';
import type { ParentState } from './state.js';

export const CHUNK = 1024 * 1024;
// O_NONBLOCK: opening a FIFO that replaced the file between lstat and open must not hang.
export const READ_NOFOLLOW = C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK;

/**
 * A managed path, its parent directory held open: `path` and `dir` name them in messages; `at`
 * and `inDir` reach them for system calls, through the handle.
 */
export interface Place {
  path: string;
  dir: string;
  at: string;
  inDir: string;
}

/**
 * Runs `act` on the path reached through its held parent directory. An error of a system call names
 * the path as the user wrote it, not the handle's /proc name.
 */
export async function inPlace<T>(path: string, act: (p: Place) => Promise<T>, parentGone?: (state: ParentState) => T): Promise<T> {
  const chased = chase(path, { followLast: false });
  if (chased.kind !== 'found') {
    if (parentGone) return parentGone(chased.kind === 'missing' ? 'missing' : 'not-directory');
    throw new UserError(`cannot change ${path}: ${chased.at} ${chased.kind === 'missing' ? 'does not exist' : 'is not a directory'}`);
  }
  const held: HeldDirectory = chased.dir;
  const place = { path, dir: nodePath.dirname(path), at: `${held.proc}/${chased.name}`, inDir: held.proc };
  try {
    return await act(place);
  } catch (e) {
    throw shownByName(e, place);
  } finally {
    held.close();
  }
}

export function shownByName(e: unknown, p: Place): unknown {
  if (!(e instanceof Error)) return e;
  const err = e as NodeJS.ErrnoException;
  const rename = (text: string) => text.split(p.inDir).join(p.dir === '/' ? '' : p.dir);
  err.message = rename(err.message);
  if (err.path !== undefined) err.path = rename(err.path);
  return err;
}

/** Reading for a status or noop run should not even change access times. */
export async function openWithoutAtime(path: string, flags: number): Promise<FileHandle> {
  try {
    return await fsp.open(path, flags | C.O_NOATIME);
  } catch (e) {
    // O_NOATIME needs ownership or CAP_FOWNER
    if (errno(e) === 'EPERM') return fsp.open(path, flags);
    throw e;
  }
}

export function openSyncWithoutAtime(path: string, flags: number): number {
  try {
    return fs.openSync(path, flags | C.O_NOATIME);
  } catch (e) {
    // O_NOATIME needs ownership or CAP_FOWNER
    if (errno(e) === 'EPERM') return fs.openSync(path, flags);
    throw e;
  }
}

export async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await fsp.lstat(path);
  } catch (e) {
    if (errno(e) === 'ENOENT') return undefined;
    throw e;
  }
}

export function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}
