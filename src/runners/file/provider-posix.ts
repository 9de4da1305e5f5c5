// The posix provider: status, atomic store, directory and link creation, and removal with plain
// system calls. The managed path itself is never followed: it is examined with lstat and opened
// with O_NOFOLLOW, and checked again right before it is replaced. Its parent directories are
// trusted (resolved normally, links included), as in Puppet (docs/file.md, "Symbolic links").
import crypto from 'node:crypto';
import { constants as C, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import nodePath from 'node:path';
import { describeFileKind } from '../../shared/file-kind.js';
import { UserError } from '../../shared/errors.js';
import { changedWhileReading, symlinkError } from './errors.js';
import type { Attributes, Current, FileProvider, ParentState, Replacing, StatusOptions, StoreContent } from './state.js';

const CHUNK = 1024 * 1024;
// O_NONBLOCK: opening a FIFO that replaced the file between lstat and open must not hang.
const READ_NOFOLLOW = C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK;

export const posixProvider: FileProvider = {
  status,
  readSource,
  store,
  createDirectory,
  updateDirectory,
  remove,
  createLink,
  updateLink,
};

async function status(path: string, options: StatusOptions): Promise<Current> {
  let st: Stats;
  try {
    st = await fsp.lstat(path);
  } catch (e) {
    if (errno(e) === 'ENOENT') return { type: 'absent', parent: await parentState(path) };
    if (errno(e) === 'ENOTDIR') return { type: 'absent', parent: 'not-directory' };
    throw e;
  }
  if (st.isSymbolicLink()) return linkStatus(path, st);
  if (st.isDirectory()) {
    const empty = options.checkEmpty ? await isEmptyDirectory(path) : undefined;
    return { type: 'directory', attrs: attributesOf(st), empty };
  }
  if (st.isFile()) return fileStatus(path, options);
  return { type: 'other', kind: describeFileKind(st) };
}

/** Hashes the file through one descriptor, so content and attributes belong to the same inode. */
async function fileStatus(path: string, options: StatusOptions): Promise<Current> {
  let fh: FileHandle;
  try {
    fh = await openWithoutAtime(path, READ_NOFOLLOW);
  } catch (e) {
    if (errno(e) === 'ELOOP') return linkStatus(path, await fsp.lstat(path));
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw changedWhileReading(path);
    const hash = crypto.createHash('sha256');
    const keep = st.size <= options.keepContentUpTo;
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await fh.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      size += bytesRead;
      if (keep) chunks.push(chunk);
    }
    const content = keep && size <= options.keepContentUpTo ? Buffer.concat(chunks) : undefined;
    return { type: 'file', attrs: attributesOf(st), size, sha256: hash.digest('hex'), content };
  } finally {
    await fh.close();
  }
}

async function linkStatus(path: string, st: Stats): Promise<Current> {
  return { type: 'symlink', target: await fsp.readlink(path), attrs: attributesOf(st) };
}

async function readSource(file: string): Promise<Buffer> {
  let fh: FileHandle;
  try {
    fh = await openWithoutAtime(file, C.O_RDONLY | C.O_NONBLOCK);
  } catch (e) {
    if (errno(e) === 'ENOENT') throw new UserError(`source file ${file} does not exist`);
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new UserError(`source ${file} is ${describeFileKind(st)}, not a regular file`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/**
 * Writes a temporary file beside the target (O_EXCL, unpredictable name, 0600 while it fills),
 * gives it its owner, group and mode, fsyncs it, and renames it over the target: the path shows
 * either the old file or the complete new one with its final attributes, never anything between.
 */
async function store(path: string, content: StoreContent, attrs: Attributes, replacing: Replacing, recursive: boolean): Promise<void> {
  const dir = nodePath.dirname(path);
  await removeStaleTemps(path);
  const temp = tempPath(path);
  let fh: FileHandle;
  try {
    fh = await fsp.open(temp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o600);
  } catch (e) {
    throw new UserError(`cannot write ${path}: creating a temporary file in ${dir} failed (${errno(e) ?? (e as Error).message})`);
  }
  await renameIntoPlace(path, temp, async () => {
    try {
      try {
        if (content === 'keep-current') await copyCurrent(path, fh);
        else await fh.writeFile(content);
      } catch (e) {
        const code = errno(e);
        if (code !== 'ENOSPC' && code !== 'EDQUOT') throw e;
        const why = code === 'ENOSPC' ? 'no space left on the device' : 'the disk quota is exhausted';
        throw new UserError(`cannot write ${path}: ${why} (${code}); ${replacing === 'nothing' ? 'nothing was created' : 'the old content is unchanged'} and the temporary file was removed`);
      }
      // Owner before mode: chown may clear mode bits; both before the name is visible.
      await fh.chown(attrs.uid, attrs.gid);
      await fh.chmod(attrs.mode);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await clearForReplacement(path, replacing, recursive, false);
  });
}

/** Like store: a temporary directory with its attributes set, renamed into place. */
async function createDirectory(path: string, attrs: Attributes, replacing: 'nothing' | 'file'): Promise<void> {
  const dir = nodePath.dirname(path);
  await removeStaleTemps(path);
  const temp = tempPath(path);
  try {
    await fsp.mkdir(temp, 0o700);
  } catch (e) {
    throw new UserError(`cannot create ${path}: creating a temporary directory in ${dir} failed (${errno(e) ?? (e as Error).message})`);
  }
  await renameIntoPlace(path, temp, async () => {
    const fh = await fsp.open(temp, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
    try {
      await fh.chown(attrs.uid, attrs.gid);
      await fh.chmod(attrs.mode);
      await fh.sync();
    } finally {
      await fh.close();
    }
    // rename() cannot put a directory over a file: the file goes first.
    await clearForReplacement(path, replacing, false, true);
  });
}

/**
 * Sets a directory's attributes in place, through a descriptor opened without following a symlink.
 * An owner change passes through the intersection of the old and new permissions, so no moment
 * grants anyone more than the old or the new state does.
 */
async function updateDirectory(path: string, attrs: Attributes): Promise<void> {
  let fh: FileHandle;
  try {
    fh = await fsp.open(path, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  } catch (e) {
    if (errno(e) === 'ELOOP') throw symlinkError(path, await fsp.readlink(path).catch(() => '?'));
    if (errno(e) === 'ENOTDIR') throw changedWhileReading(path);
    throw e;
  }
  try {
    const st = await fh.stat();
    const mode = st.mode & 0o7777;
    if (st.uid !== attrs.uid || st.gid !== attrs.gid) {
      const between = mode & attrs.mode;
      if (between !== mode) await fh.chmod(between);
      await fh.chown(attrs.uid, attrs.gid);
    }
    await fh.chmod(attrs.mode);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function remove(path: string, type: 'file' | 'directory' | 'link', recursive: boolean): Promise<void> {
  const st = await lstatOrUndefined(path);
  if (!st) return;
  if (type === 'link') {
    if (!st.isSymbolicLink()) throw changedWhileReading(path);
    await fsp.unlink(path); // the link, never its target
  } else if (st.isSymbolicLink()) {
    throw symlinkError(path, await fsp.readlink(path));
  } else if (type === 'file') {
    if (!st.isFile()) throw changedWhileReading(path);
    await fsp.unlink(path);
  } else {
    if (!st.isDirectory()) throw changedWhileReading(path);
    await removeDirectory(path, recursive);
  }
  await syncDirectory(nodePath.dirname(path));
}

/**
 * A new link beside the target, given its owner and group (lchown), renamed over what is there: the
 * path shows the old entry or the new link, never nothing (a directory being replaced goes first,
 * as rename() cannot put a link over it).
 */
async function createLink(path: string, target: string, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>, replacing: Replacing, recursive: boolean): Promise<void> {
  const dir = nodePath.dirname(path);
  await removeStaleTemps(path);
  const temp = tempPath(path);
  try {
    await fsp.symlink(target, temp);
  } catch (e) {
    throw new UserError(`cannot create ${path}: creating a temporary link in ${dir} failed (${errno(e) ?? (e as Error).message})`);
  }
  await renameIntoPlace(path, temp, async () => {
    await lchownPart(temp, owner);
    await clearForReplacement(path, replacing, recursive, false);
  });
}

async function updateLink(path: string, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>): Promise<void> {
  const st = await fsp.lstat(path);
  if (!st.isSymbolicLink()) throw changedWhileReading(path);
  await lchownPart(path, owner);
}

/** lchown with -1 (leave as it is) for what is not given. */
async function lchownPart(path: string, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>): Promise<void> {
  if (owner.uid === undefined && owner.gid === undefined) return;
  await fsp.lchown(path, owner.uid ?? -1, owner.gid ?? -1);
}

/**
 * Right before the rename: the path must still be what the decision saw, and never a symlink
 * (unless a link is what is being replaced).
 * A directory being replaced goes now; so does a file a new directory replaces (rename() cannot
 * put a directory over a file). A file a new file replaces stays: the rename swaps it atomically.
 */
async function clearForReplacement(path: string, replacing: Replacing, recursive: boolean, forDirectory: boolean): Promise<void> {
  const st = await lstatOrUndefined(path);
  if (!st) return;
  if (st.isSymbolicLink() && replacing === 'link') return; // the rename swaps it atomically
  if (st.isSymbolicLink()) {
    const target = await fsp.readlink(path).catch(() => '?');
    throw new UserError(`${path} became a symbolic link (to ${target}) while govern was writing it; nothing was written through it and it was left as it is`);
  }
  if (st.isFile() && replacing === 'file') {
    if (forDirectory) await fsp.unlink(path);
    return;
  }
  if (st.isDirectory() && replacing === 'directory') return removeDirectory(path, recursive);
  throw changedWhileReading(path);
}

async function removeDirectory(path: string, recursive: boolean): Promise<void> {
  if (recursive) {
    await fsp.rm(path, { recursive: true }); // removes symlinks inside, never follows them
    return;
  }
  try {
    await fsp.rmdir(path);
  } catch (e) {
    if (errno(e) === 'ENOTEMPTY' || errno(e) === 'EEXIST') {
      throw new UserError(`${path} is no longer empty; set force = true to remove it and everything in it`);
    }
    throw e;
  }
}

/** Copies the current file's bytes (content not managed, attributes changing). */
async function copyCurrent(path: string, out: FileHandle): Promise<void> {
  let input: FileHandle;
  try {
    input = await openWithoutAtime(path, READ_NOFOLLOW);
  } catch (e) {
    if (errno(e) === 'ELOOP') throw symlinkError(path, await fsp.readlink(path).catch(() => '?'));
    throw e;
  }
  try {
    if (!(await input.stat()).isFile()) throw changedWhileReading(path);
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await input.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      await out.write(buffer, 0, bytesRead);
    }
  } finally {
    await input.close();
  }
}

/**
 * How every write ends: finish the temporary entry and check that the path still holds what the
 * decision saw (prepare), rename the entry over the path, and sync the directory. When a step fails
 * the temporary entry goes, and the path is as it was.
 */
async function renameIntoPlace(path: string, temp: string, prepare: () => Promise<void>): Promise<void> {
  let renamed = false;
  try {
    await prepare();
    await fsp.rename(temp, path);
    renamed = true;
    await syncDirectory(nodePath.dirname(path));
  } finally {
    if (!renamed) await fsp.rm(temp, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A rename is durable only once its directory is synced. */
async function syncDirectory(dir: string): Promise<void> {
  const fh = await fsp.open(dir, C.O_RDONLY | C.O_DIRECTORY);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Beside the target (rename stays in one filesystem), hidden, and not guessable. */
function tempPath(path: string): string {
  return nodePath.join(nodePath.dirname(path), `${tempPrefix(path)}${crypto.randomBytes(8).toString('hex')}`);
}

function tempPrefix(path: string): string {
  return `.${nodePath.basename(path).slice(0, 100)}.govern-`;
}

/** A temporary entry this old was left by a runner that was killed: no write takes this long. */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Removes what a killed earlier write of this path left beside it: entries named as tempPath names
 * them (`.NAME.govern-` and 16 hex digits), owned by us and older than STALE_TEMP_MS, so a write under
 * way in another process is never touched. Links inside a left directory are removed, not followed.
 */
async function removeStaleTemps(path: string): Promise<void> {
  const dir = nodePath.dirname(path);
  const prefix = tempPrefix(path);
  const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith(prefix) && /^[0-9a-f]{16}$/.test(n.slice(prefix.length)));
  const cutoff = Date.now() - STALE_TEMP_MS;
  for (const name of names) {
    const entry = nodePath.join(dir, name);
    const st = await lstatOrUndefined(entry);
    if (!st || st.uid !== (process.getuid?.() ?? st.uid) || st.mtimeMs > cutoff) continue;
    await fsp.rm(entry, { recursive: st.isDirectory(), force: true }).catch(() => undefined);
  }
}

/** Reading for a status or noop run should not even change access times. */
async function openWithoutAtime(path: string, flags: number): Promise<FileHandle> {
  try {
    return await fsp.open(path, flags | C.O_NOATIME);
  } catch (e) {
    // O_NOATIME needs ownership or CAP_FOWNER
    if (errno(e) === 'EPERM') return fsp.open(path, flags);
    throw e;
  }
}

async function isEmptyDirectory(path: string): Promise<boolean> {
  const dir = await fsp.opendir(path);
  try {
    return (await dir.read()) === null;
  } finally {
    await dir.close();
  }
}

async function parentState(path: string): Promise<ParentState> {
  try {
    return (await fsp.stat(nodePath.dirname(path))).isDirectory() ? 'directory' : 'not-directory';
  } catch (e) {
    if (errno(e) === 'ENOENT') return 'missing';
    if (errno(e) === 'ENOTDIR') return 'not-directory';
    throw e;
  }
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await fsp.lstat(path);
  } catch (e) {
    if (errno(e) === 'ENOENT') return undefined;
    throw e;
  }
}

function attributesOf(st: Stats): Attributes {
  return { uid: st.uid, gid: st.gid, mode: st.mode & 0o7777 };
}

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}
