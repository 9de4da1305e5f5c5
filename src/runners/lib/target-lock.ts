// Writers of one file serialised: a runner that reads a whole file, decides and writes it back (the
// file system table, a sysctl drop-in, a file edited line by line) holds an exclusive flock on a
// lock file named after the target's path while it does, so that two resources on one file, run at
// once by --jobs or in two runner processes, never write over each other's change (docs/runners.md,
// "Files several resources write"). Noop writes nothing and takes no lock.
import fs from 'node:fs';
import path from 'node:path';
import { flockFd, openLockFile } from '../../shared/flock.js';
import { UserError } from '../../shared/errors.js';
import { ensureLockDir, lockDir } from '../../shared/lock-dir.js';
import type { RunnerResult } from '../../shared/protocol.js';

const WAIT_MS = 600_000;

/**
 * The lock file of a target: in govern's lock directory, named by a hash of the absolute path.
 * FNV-1a, twice 32 bits: loading node:crypto would cost a runner megabytes, and two paths that
 * happened to share a name would only share a lock (serialised, never wrong).
 */
export function targetLockFile(file: string, dir: string = lockDir()): string {
  const text = path.resolve(file);
  const fnv = (seed: number) => {
    let h = seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return h.toString(16).padStart(8, '0');
  };
  return path.join(dir, `file-${fnv(0x811c9dc5)}${fnv(0x050c5d1f)}.lock`);
}

/** Runs `act` holding the lock of each file (taken in sorted order, so two holders never wait on each other). */
export async function withTargetLocks<T>(files: string[], act: () => Promise<T>): Promise<T> {
  ensureLockDir(lockDir());
  const fds: number[] = [];
  try {
    for (const file of [...new Set(files.map((f) => path.resolve(f)))].sort()) {
      const fd = openLockFile(targetLockFile(file));
      fds.push(fd);
      if (!(await flockFd(fd, WAIT_MS))) throw new UserError(`gave up after ${WAIT_MS / 1000}s waiting for another runner writing ${file}`);
    }
    return await act();
  } finally {
    for (const fd of fds) fs.closeSync(fd);
  }
}

/**
 * A runner's apply that holds the lock of the file(s) `filesOf` names for the request (none: no
 * lock), from before it reads them to after it writes them. It is tried as a noop first, without
 * the lock: a resource with nothing to change (most, on most runs) takes none, and answers what
 * the noop found, with its log.
 */
export function lockingTargets<R extends { noop: boolean; log(line: string): void }>(
  filesOf: (request: R) => string[] | Promise<string[]>,
  apply: (request: R) => Promise<RunnerResult>,
): (request: R) => Promise<RunnerResult> {
  return async (request) => {
    if (request.noop) return apply(request);
    const logged: string[] = [];
    const probe = await apply({ ...request, noop: true, log: (line: string) => logged.push(line) });
    if (!probe.changed) {
      for (const line of logged) request.log(line);
      return probe;
    }
    return withTargetLocks(await filesOf(request), () => apply(request));
  };
}
