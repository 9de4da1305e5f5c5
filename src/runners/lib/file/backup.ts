// `backup = true`: the content a change replaces (file, ini, block) is kept (Puppet's filebucket, Ansible's
// `backup: yes`), in one root-only directory rather than beside the file, where a conf.d directory
// would read the copy as configuration: VAR_DIR/backup/PATH/TIME (VAR_DIR is the run's --var-dir,
// /var/lib/govern by default), the newest few per file, each with the owner and mode the file had
// (TIME.json), so that `govern backups restore` puts it back as it was.
import fs from 'node:fs';
import path from 'node:path';

/** The var dir when the run gives its runners none (GOVERN_VAR_DIR). */
export const DEFAULT_BACKUP_VAR_DIR = '/var/lib/govern';
/** Copies kept per file: the oldest go when there are more. */
export const BACKUPS_KEPT = 5;
/** A copy's name: its time, 20261125T025300123Z, and -N when two fall in one millisecond. */
export const BACKUP_NAME = /^\d{8}T\d{9}Z(-\d+)?$/;

/**
 * Set by a run of a tree govern pull marked with --revert-on-failure (docs/rollout.md): every change
 * of content is backed up, `backup = true` or not, so a return to the last good commit can restore it.
 */
export const BACKUP_ALWAYS_ENV = 'GOVERN_BACKUP_ALWAYS';

/** Whether a change of content is backed up: the resource asked, or the run backs up every change. */
export const backupWanted = (asked: boolean, env: NodeJS.ProcessEnv): boolean => asked || env[BACKUP_ALWAYS_ENV] === '1';

/** What a copy keeps of the file besides its content. */
export interface BackupMeta {
  uid: number;
  gid: number;
  mode: number;
}

/** The directory of every copy, under the var dir. */
export function backupRoot(varDir: string): string {
  return path.join(varDir, 'backup');
}

/**
 * Copies the regular file at `file` (not following a link at its name) into the backup directory
 * as BACKUP_DIR/FILE/TIME, and removes the file's copies beyond the newest BACKUPS_KEPT. Returns the copy's path.
 */
export function backUp(file: string, env: NodeJS.ProcessEnv, now = new Date()): string {
  const root = backupRoot(env.GOVERN_VAR_DIR || DEFAULT_BACKUP_VAR_DIR);
  const dir = path.join(root, file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(root, 0o700); // the copies may hold secrets their files kept from others
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  let content: Buffer;
  let meta: BackupMeta;
  try {
    const st = fs.fstatSync(fd);
    meta = { uid: st.uid, gid: st.gid, mode: st.mode & 0o7777 };
    content = fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', ''); // 20261125T025300123Z: sorts by time
  let copy = path.join(dir, stamp);
  for (let n = 1; fs.existsSync(copy); n++) copy = path.join(dir, `${stamp}-${n}`);
  fs.writeFileSync(copy, content, { flag: 'wx', mode: 0o600 });
  fs.writeFileSync(`${copy}.json`, JSON.stringify(meta) + '\n', { flag: 'wx', mode: 0o600 });
  const copies = fs.readdirSync(dir).filter((name) => BACKUP_NAME.test(name)).sort();
  for (const old of copies.slice(0, Math.max(0, copies.length - BACKUPS_KEPT))) {
    fs.rmSync(path.join(dir, old), { force: true });
    fs.rmSync(path.join(dir, `${old}.json`), { force: true });
  }
  return copy;
}
