// What two test runs on one host cannot keep apart with directories of their own: the accounts,
// packages, services and jobs with fixed names (and UIDs) that real-host tests create and remove, and
// the Debian package named govern. A describe that changes them holds one lock every suite on the
// host shares, taken before its first hook and released after its last, so a second run waits.
// One lock for all of them, taken by top-level describes only: no order of two locks to get wrong.
import { flockFd, heldLock, openLockFile, type HeldLock } from '../../src/shared/flock.js';

const WAIT_MS = 1_500_000;

/**
 * One path for every suite on the host, whatever TMPDIR each has and apart from its own directories
 * (suite-dirs.ts): what the lock guards is the host's, so a suite started with another TMPDIR must
 * still wait for it. /tmp, where every suite took it before (the default TMPDIR).
 */
export const HOST_LOCK_FILE = '/tmp/govern-suite-host.lock';

/** Call first in the describe, so that the lock is taken before the describe's own hooks run. */
export function hostExclusive(): void {
  let lock: HeldLock | undefined;
  before(async function () {
    this.timeout(WAIT_MS + 60_000);
    const fd = openLockFile(HOST_LOCK_FILE);
    if (!(await flockFd(fd, WAIT_MS))) throw new Error(`another test run held the host lock for ${WAIT_MS / 60_000} minutes`);
    lock = heldLock(fd);
  });
  after(() => lock?.release());
}
