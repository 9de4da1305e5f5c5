// The archive read once: a local source is copied through one descriptor into a file of root's
// alone (a download already is one), hashed as it is read, and that file is then held open. The
// checksum, the listing and the extraction all read the held file through /proc/PID/fd/N, so a
// source swapped or rewritten between them changes nothing (docs/archive.md, "Read once").
import crypto from 'node:crypto';
import fs, { constants as C } from 'node:fs';
import { UserError } from '../../shared/errors.js';

const CHUNK = 1024 * 1024;

export interface HeldSource {
  /** The held file as a path any process of this user can open: always the same inode. */
  path: string;
  sha256: string;
  close(): void;
}

/** Holds `file` (root's own: a download, or a copy) open and hashes it through that descriptor. */
export function holdFile(file: string, shown: string): HeldSource {
  const fd = openRegular(file, shown);
  try {
    const hash = crypto.createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let at = 0; ; ) {
      const n = fs.readSync(fd, buffer, 0, CHUNK, at);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      at += n;
    }
    return { path: `/proc/${process.pid}/fd/${fd}`, sha256: hash.digest('hex'), close: () => fs.closeSync(fd) };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** Copies a local source, read through one descriptor, into `copy` (created new, mode 0600). */
export function copySource(source: string, copy: string): void {
  const input = openRegular(source, source);
  try {
    const output = fs.openSync(copy, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o600);
    try {
      const buffer = Buffer.allocUnsafe(CHUNK);
      for (;;) {
        const n = fs.readSync(input, buffer, 0, CHUNK, null);
        if (n === 0) break;
        for (let done = 0; done < n; ) done += fs.writeSync(output, buffer, done, n - done);
      }
      fs.fsyncSync(output);
    } finally {
      fs.closeSync(output);
    }
  } finally {
    fs.closeSync(input);
  }
}

/** Fails unless the held file's SHA-256 is the one wanted. */
export function checkHeldSha256(held: HeldSource, source: string, want: string): void {
  if (held.sha256 !== want) throw new UserError(`${source} has sha256 ${held.sha256}, not ${want}: nothing extracted`);
}

function openRegular(file: string, shown: string): number {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO in the source's place must not hang the run.
    fd = fs.openSync(file, C.O_RDONLY | C.O_NONBLOCK);
  } catch (e) {
    throw new UserError(`cannot read ${shown}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!fs.fstatSync(fd).isFile()) {
    fs.closeSync(fd);
    throw new UserError(`cannot read ${shown}: not a regular file`);
  }
  return fd;
}
