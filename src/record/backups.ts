// `govern backups`: the copies `backup = true` keeps under VAR_DIR/backup (runners/lib/file/backup.ts),
// listed with their time and size, and one put back, as Puppet's `filebucket restore` does: atomically,
// with the owner, group and mode the file had, never through a symbolic link.
import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_NAME, backupRoot, type BackupMeta } from '../runners/lib/file/backup.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';

export interface Backup {
  /** The file it is a copy of. */
  file: string;
  /** Its name in the backup directory: the time it was taken (20261125T025300123Z). */
  id: string;
  at: Date;
  bytes: number;
}

/** Directories walked at most: the tree is the files govern backed up, never the whole disk. */
const MAX_DIRECTORIES = 100_000;

/** Every copy, oldest first per file, files in order; of one file (or the files under a directory) when `under` is given. */
export function listBackups(varDir: string, under?: string): Backup[] {
  const root = backupRoot(varDir);
  const start = under === undefined ? root : path.join(root, path.resolve(under));
  const found: Backup[] = [];
  let walked = 0;
  const walk = (dir: string): void => {
    if (++walked > MAX_DIRECTORIES) throw new UserError(`${root}: more than ${MAX_DIRECTORIES} directories: not a backup directory govern wrote`);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw e;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full); // a link is neither a directory nor a file here: never followed
      else if (entry.isFile() && BACKUP_NAME.test(entry.name)) {
        found.push({ file: '/' + path.relative(root, dir), id: entry.name, at: timeOf(entry.name), bytes: fs.lstatSync(full).size });
      }
    }
  };
  walk(start);
  return found;
}

/** "/etc/app.conf  20261125T025300123Z  2026-11-25 02:53:00 UTC  1234 bytes", a line per copy. */
export function backupLines(backups: readonly Backup[]): string[] {
  return backups.map((b) => `${b.file}  ${b.id}  ${b.at.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}  ${b.bytes} bytes`);
}

/** Puts the copy `at` (the newest without it) back at `file`; returns what it did, in one line. */
export function restoreBackup(varDir: string, file: string, at?: string): string {
  const target = path.resolve(file);
  const copies = listBackups(varDir, target).filter((b) => b.file === target);
  if (copies.length === 0) throw new UserError(`${target}: no backup in ${backupRoot(varDir)} (a file is backed up when a change replaces its content and it has backup = true)`);
  const chosen = at === undefined ? copies[copies.length - 1] : copies.find((b) => b.id === at);
  if (chosen === undefined) throw new UserError(`${target}: no backup ${at} (there: ${copies.map((b) => b.id).join(', ')})`);
  refuseLinks(target);
  const copy = path.join(backupRoot(varDir), target, chosen.id);
  const content = readNoFollow(copy);
  const meta = JSON.parse(readNoFollow(`${copy}.json`).toString('utf8')) as BackupMeta;
  if (![meta.uid, meta.gid, meta.mode].every((n) => Number.isInteger(n) && n >= 0)) throw new UserError(`${copy}.json: not the owner and mode of a backup`);
  writeFileAtomic(target, content, meta.mode & 0o7777, { uid: meta.uid, gid: meta.gid });
  return `restored ${target} from ${chosen.id} (${content.length} bytes, owner ${meta.uid}:${meta.gid}, mode ${(meta.mode & 0o7777).toString(8).padStart(4, '0')})`;
}

/** The target may be missing or a regular file; it and every directory above it must not be a link. */
function refuseLinks(target: string): void {
  const dir = path.dirname(target);
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    throw new UserError(`${target}: its directory ${dir} does not exist`);
  }
  if (real !== dir) throw new UserError(`${target}: ${dir} goes through a symbolic link (to ${real}): refusing to follow it`);
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(target);
  } catch {
    st = undefined;
  }
  if (st?.isSymbolicLink()) throw new UserError(`${target} is a symbolic link: refusing to follow it (remove it first to restore the file there)`);
  if (st !== undefined && !st.isFile()) throw new UserError(`${target} is not a regular file: nothing is restored over it`);
}

function readNoFollow(file: string): Buffer {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function timeOf(id: string): Date {
  const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)(\d{3})Z/.exec(id)!;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +m[7]));
}
