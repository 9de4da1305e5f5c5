// An exclusive flock(2) held by this process on a lock file, for as long as the file stays open.
// Node has no flock call, so util-linux's flock(1) takes it on our descriptor (passed as its fd 3):
// the lock belongs to the open file, which stays ours when flock exits, and the kernel releases it
// when govern ends, however it ends (a killed run never leaves a lock behind). Node opens files
// close-on-exec, so runners never inherit it.
import fs from 'node:fs';
import { UserError } from './errors.js';
import { describeFileKind } from './file-kind.js';
import { trackChild } from './process.js';
import { spawnWatched } from './start-gate.js';

/** flock's exit status when the lock is taken (-n) or the wait times out (-w). */
const CONFLICT_EXIT = 75;

export interface HeldLock {
  fd: number;
  release(): void;
}

/**
 * Opens (creating 0600) the lock file, not through a symlink, and only a regular file: a FIFO or a
 * device in its place is refused by name (O_NONBLOCK, so that opening one does not wait).
 */
export function openLockFile(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK, 0o600);
  } catch (e) {
    throw new UserError(`cannot open the lock file ${file}: ${(e as Error).message}`);
  }
  const st = fs.fstatSync(fd);
  if (!st.isFile()) {
    fs.closeSync(fd);
    throw new UserError(`the lock file ${file} is ${describeFileKind(st)}, not a regular file: remove it, and govern creates it again`);
  }
  return fd;
}

/**
 * Takes the lock on fd: at once when `waitMs` is 0, else waiting up to waitMs. Resolves true when
 * taken, false when another process holds it still.
 */
export function flockFd(fd: number, waitMs: number): Promise<boolean> {
  const wait = waitMs <= 0 ? ['-n'] : ['-w', (waitMs / 1000).toFixed(3)];
  return new Promise((resolve, reject) => {
    // A group of its own, as every process govern starts: the watcher kills a waiting flock too
    // when govern is killed (shared/child-guard.ts), and it reaches only group leaders.
    const child = spawnWatched('flock', [...wait, '-E', String(CONFLICT_EXIT), '3'], { stdio: ['ignore', 'ignore', 'pipe', fd] });
    const untrack = trackChild(child);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (e) => {
      untrack();
      reject(new UserError(`cannot run flock (util-linux), which takes govern's locks: ${e.message}`));
    });
    child.on('close', (code) => {
      untrack();
      if (code === 0) resolve(true);
      else if (code === CONFLICT_EXIT) resolve(false);
      else reject(new UserError(`flock failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}

export function heldLock(fd: number): HeldLock {
  let open = true;
  return {
    fd,
    release() {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}
