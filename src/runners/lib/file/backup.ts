// `backup = true`: the content a change replaces (file, ini, block) is kept (Puppet's filebucket, Ansible's
// `backup: yes`), in one root-only directory rather than beside the file, where a conf.d directory
// would read the copy as configuration. /var/lib/govern/backup/PATH/TIME, the newest few per file.
import fs from 'node:fs';
import path from 'node:path';

/** Where the copies go, unless GOVERN_BACKUP_DIR says otherwise. */
export const DEFAULT_BACKUP_DIR = '/var/lib/govern/backup';
/** Copies kept per file: the oldest go when there are more. */
export const BACKUPS_KEPT = 5;

/**
 * Copies the regular file at `file` (not following a link at its name) into the backup directory
 * as BACKUP_DIR/FILE/TIME, and removes the file's copies beyond the newest BACKUPS_KEPT. Returns the copy's path.
 */
export function backUp(file: string, env: NodeJS.ProcessEnv, now = new Date()): string {
  const root = env.GOVERN_BACKUP_DIR || DEFAULT_BACKUP_DIR;
  const dir = path.join(root, file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(root, 0o700); // the copies may hold secrets their files kept from others
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  let content: Buffer;
  try {
    content = fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', ''); // 20261125T025300123Z: sorts by time
  let copy = path.join(dir, stamp);
  for (let n = 1; fs.existsSync(copy); n++) copy = path.join(dir, `${stamp}-${n}`);
  fs.writeFileSync(copy, content, { flag: 'wx', mode: 0o600 });
  const copies = fs.readdirSync(dir).filter((name) => /^\d{8}T\d{9}Z(-\d+)?$/.test(name)).sort();
  for (const old of copies.slice(0, Math.max(0, copies.length - BACKUPS_KEPT))) fs.rmSync(path.join(dir, old), { force: true });
  return copy;
}
