// Writing a whole file so that readers see the old content or the new, never a part: a temporary
// file beside it (O_EXCL, a name no reader looks for), written and fsynced, renamed over it, and
// the directory fsynced so the rename survives a crash.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** owner: the uid and gid the file gets (set on the descriptor before the rename); the writer's own without it. */
export function writeFileAtomic(file: string, content: string | Buffer, mode = 0o644, owner?: { uid: number; gid: number }): void {
  const dir = path.dirname(file);
  // A hidden name without the target's extension: node_exporter reads *.prom, for one.
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, mode);
  let renamed = false;
  try {
    try {
      fs.writeFileSync(fd, content);
      if (owner) fs.fchownSync(fd, owner.uid, owner.gid);
      fs.fchmodSync(fd, mode); // whatever the umask, after chown (which clears setuid)
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
    renamed = true;
    syncDirectory(dir);
  } finally {
    if (!renamed) fs.rmSync(temp, { force: true });
  }
}

export function syncDirectory(dir: string): void {
  const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
