// One govern run at a time on a host, noop included: an exclusive lock on /run/govern/run.lock
// (GOVERN_LOCK_DIR moves the directory),
// held from before planning to the end of the run. The holder writes its pid and start time into
// the file, so a run that has to wait can say what it waits for.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../shared/duration.js';
import { UserError } from '../shared/errors.js';
import { ensureLockDir, lockDir } from '../shared/lock-dir.js';
import { flockFd, heldLock, openLockFile, type HeldLock } from '../shared/flock.js';

export const RUN_LOCK_NAME = 'run.lock';

export interface RunLockOptions {
  /** How long to wait for the run under way; 0 fails at once. */
  timeoutMs: number;
  /** When this run started (ISO 8601), written for the runs that wait. */
  startedAt: string;
  /** Told once, when the lock is taken and this run starts waiting. */
  onWait(message: string): void;
  /** Asked once the lock is taken: true when the run was stopped meanwhile, and the lock is let go at once. */
  abandoned?(): boolean;
  dir?: string;
}

/** What the lock file says about the run holding it. */
export interface LockHolder {
  pid: number;
  started_at: string;
}

export async function acquireRunLock(o: RunLockOptions): Promise<HeldLock> {
  const dir = o.dir ?? lockDir();
  ensureLockDir(dir);
  const fd = openLockFile(path.join(dir, RUN_LOCK_NAME));
  try {
    if (!(await flockFd(fd, 0))) {
      if (o.timeoutMs <= 0) throw new UserError(`${describe(await readHolder(fd))} is under way; not waiting (--lock-timeout 0)`);
      o.onWait(`waiting for ${describe(await readHolder(fd))}`);
      if (!(await flockFd(fd, o.timeoutMs))) {
        throw new UserError(`gave up after ${formatDuration(o.timeoutMs)} waiting for ${describe(await readHolder(fd))} (--lock-timeout)`);
      }
    }
    // A run stopped while flock took the lock never begins, and leaves the holder's record as it was.
    if (o.abandoned?.()) throw new UserError('the run was stopped before it held the run lock');
    const record = `${JSON.stringify({ pid: process.pid, started_at: o.startedAt } satisfies LockHolder)}\n`;
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, record, 0);
    return heldLock(fd);
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

function describe(holder: LockHolder | undefined): string {
  return holder ? `the run of pid ${holder.pid} started at ${holder.started_at}` : 'another govern run (it has not written its pid yet)';
}

/**
 * The holder's record. It writes it right after taking the lock, and a run that ended leaves its own
 * record in the file (the kernel drops the lock however govern ends), so until the new holder has
 * written, the file is empty or names a process that no longer exists: both are retried briefly.
 */
async function readHolder(fd: number): Promise<LockHolder | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const buffer = Buffer.alloc(4096);
    const text = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString();
    try {
      const holder = JSON.parse(text) as LockHolder;
      if (Number.isInteger(holder.pid) && typeof holder.started_at === 'string' && processExists(holder.pid)) return holder;
    } catch {
      // not written yet
    }
    await sleep(25);
  }
  return undefined;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // there, but another user's
  }
}

/** The run lock if no run holds it now, else undefined: for work that must not overlap a run but need not wait. */
export async function tryRunLock(dir: string = lockDir()): Promise<HeldLock | undefined> {
  ensureLockDir(dir);
  const fd = openLockFile(path.join(dir, RUN_LOCK_NAME));
  if (await flockFd(fd, 0)) return heldLock(fd);
  fs.closeSync(fd);
  return undefined;
}
