// What two test runs on one host cannot keep apart with names of their own (the Debian package
// named govern, installed and purged): a describe that changes it holds a lock every suite on the
// host shares, taken before its first hook and released after its last, so a second run waits.
import os from 'node:os';
import path from 'node:path';
import { flockFd, heldLock, openLockFile, type HeldLock } from '../../src/lock/flock.js';

const WAIT_MS = 1_500_000;

/** Call first in the describe, so that the lock is taken before the describe's own hooks run. */
export function hostExclusive(name: string): void {
  let lock: HeldLock | undefined;
  before(async function () {
    this.timeout(WAIT_MS + 60_000);
    const fd = openLockFile(path.join(os.tmpdir(), `govern-suite-${name}.lock`));
    if (!(await flockFd(fd, WAIT_MS))) throw new Error(`another test run held the host lock ${name} for ${WAIT_MS / 60_000} minutes`);
    lock = heldLock(fd);
  });
  after(() => lock?.release());
}
