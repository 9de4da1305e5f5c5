// The posix provider: status, atomic store, directory and link creation, and removal with plain
// system calls. The managed path itself is never followed: it is examined with lstat and opened
// with O_NOFOLLOW, and checked again right before it is replaced. Its parent directory is resolved
// once by chase (links followed only as CHASE_SAFE allows) and held open; every system call reaches
// the path through that handle, never by its name again (docs/file.md, "Symbolic links on the way").
import crypto from 'node:crypto';
import fs, { constants as C, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import nodePath from 'node:path';
import { chase, lstatOrUndefined as lstatOrUndefinedSync, type HeldDirectory } from '../../shared/chase.js';
import { describeFileKind } from '../../shared/file-kind.js';
import { UserError } from '../../shared/errors.js';
import { changedWhileReading, symlinkError } from './errors.js';
import { removeTreeByHandle } from '../lib/remove-tree.js';
import type { Attributes, Current, FileProvider, Listing, ParentState, Replacing, StatusOptions, StoreContent } from './state.js';

const CHUNK = 1024 * 1024;
// O_NONBLOCK: opening a FIFO that replaced the file between lstat and open must not hang.
const READ_NOFOLLOW = C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK;

export const posixProvider: FileProvider = {
  status,
  readSource,
  store: (path, ...rest) => inPlace(path, (p) => store(p, ...rest)),
  createDirectory: (path, ...rest) => inPlace(path, (p) => createDirectory(p, ...rest)),
  updateDirectory: (path, ...rest) => inPlace(path, (p) => updateDirectory(p, ...rest)),
  remove: (path, ...rest) => inPlace(path, (p) => remove(p, ...rest)),
  createLink: (path, ...rest) => inPlace(path, (p) => createLink(p, ...rest)),
  updateLink: (path, ...rest) => inPlace(path, (p) => updateLink(p, ...rest)),
  list: (path) => inPlace(path, (p) => list(p)),
};

/**
 * What a directory holds, read through the directory itself opened without following a link in its
 * place; `resolved` is where it is once links on the way are followed (chase's rule).
 */
async function list(p: Place): Promise<Listing> {
  const fd = fs.openSync(p.at, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  try {
    const entries = fs.readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
    const resolved = nodePath.join(fs.readlinkSync(p.inDir), nodePath.basename(p.path));
    return {
      resolved,
      entries: entries.map((e) => ({ name: e.name, type: e.isSymbolicLink() ? 'link' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other' })),
    };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A managed path, its parent directory held open: `path` and `dir` name them in messages; `at`
 * and `inDir` reach them for system calls, through the handle.
 */
interface Place {
  path: string;
  dir: string;
  at: string;
  inDir: string;
}

/**
 * Runs `act` on the path reached through its held parent directory. An error of a system call names
 * the path as the user wrote it, not the handle's /proc name.
 */
async function inPlace<T>(path: string, act: (p: Place) => Promise<T>, parentGone?: (state: ParentState) => T): Promise<T> {
  const chased = chase(path, { followLast: false });
  if (chased.kind !== 'found') {
    if (parentGone) return parentGone(chased.kind === 'missing' ? 'missing' : 'not-directory');
    throw new UserError(`cannot change ${path}: ${chased.at} ${chased.kind === 'missing' ? 'does not exist' : 'is not a directory'}`);
  }
  const held: HeldDirectory = chased.dir;
  const place = { path, dir: nodePath.dirname(path), at: `${held.proc}/${chased.name}`, inDir: held.proc };
  try {
    return await act(place);
  } catch (e) {
    throw shownByName(e, place);
  } finally {
    held.close();
  }
}

function shownByName(e: unknown, p: Place): unknown {
  if (!(e instanceof Error)) return e;
  const err = e as NodeJS.ErrnoException;
  const rename = (text: string) => text.split(p.inDir).join(p.dir === '/' ? '' : p.dir);
  err.message = rename(err.message);
  if (err.path !== undefined) err.path = rename(err.path);
  return err;
}

function status(path: string, options: StatusOptions): Promise<Current> {
  return inPlace(path, (p) => statusOf(p, options), (parent) => ({ type: 'absent', parent }));
}

// The checks of a status are synchronous system calls: a runner works on one request at a time, and
// a trip through libuv's thread pool for each call costs more than the call (bench/README.md,
// "Round two").
async function statusOf(p: Place, options: StatusOptions): Promise<Current> {
  const st = lstatOrUndefinedSync(p.at);
  if (st === undefined) return { type: 'absent', parent: 'directory' };
  if (st.isSymbolicLink()) return linkStatus(p, st);
  if (st.isDirectory()) {
    const empty = options.checkEmpty ? await isEmptyDirectory(p.at) : undefined;
    return { type: 'directory', attrs: attributesOf(st), empty };
  }
  if (st.isFile()) return fileStatus(p, options);
  return { type: 'other', kind: describeFileKind(st) };
}

/** Hashes the file through one descriptor, so content and attributes belong to the same inode. */
function fileStatus(p: Place, options: StatusOptions): Current {
  let fd: number;
  try {
    fd = openSyncWithoutAtime(p.at, READ_NOFOLLOW);
  } catch (e) {
    if (errno(e) === 'ELOOP') return linkStatus(p, fs.lstatSync(p.at));
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw changedWhileReading(p.path);
    const hash = crypto.createHash('sha256');
    const keep = st.size <= options.keepContentUpTo;
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(st.size - size + 1, 4096)));
      const bytesRead = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      size += bytesRead;
      if (keep) chunks.push(chunk);
    }
    const content = keep && size <= options.keepContentUpTo ? Buffer.concat(chunks) : undefined;
    return { type: 'file', attrs: attributesOf(st), size, sha256: hash.digest('hex'), content };
  } finally {
    fs.closeSync(fd);
  }
}

function linkStatus(p: Place, st: Stats): Current {
  return { type: 'symlink', target: fs.readlinkSync(p.at), attrs: attributesOf(st) };
}

/**
 * The source is read as root: every link on its way, its own name included, is followed only as
 * chase allows, so a user who can write a directory on the way cannot make govern copy a file
 * only root may read.
 */
async function readSource(file: string): Promise<Buffer> {
  const chased = chase(file, { followLast: true });
  if (chased.kind !== 'found') throw new UserError(`source file ${file} does not exist${chased.kind === 'not-directory' ? ` (${chased.at} is not a directory)` : ''}`);
  const place = { path: file, dir: chased.dir.shown, at: `${chased.dir.proc}/${chased.name}`, inDir: chased.dir.proc };
  try {
    let fh: FileHandle;
    try {
      fh = await openWithoutAtime(place.at, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
    } catch (e) {
      if (errno(e) === 'ENOENT') throw new UserError(`source file ${file} does not exist`);
      if (errno(e) === 'ELOOP') throw new UserError(`source ${file} changed while govern was reading it; nothing was written, run again`);
      throw e;
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new UserError(`source ${file} is ${describeFileKind(st)}, not a regular file`);
      return await fh.readFile();
    } finally {
      await fh.close();
    }
  } catch (e) {
    throw shownByName(e, place);
  } finally {
    chased.dir.close();
  }
}

/**
 * Writes a temporary file beside the target (O_EXCL, unpredictable name, 0600 while it fills),
 * gives it its owner, group and mode, fsyncs it, and renames it over the target: the path shows
 * either the old file or the complete new one with its final attributes, never anything between.
 */
async function store(p: Place, content: StoreContent, attrs: Attributes, replacing: Replacing, recursive: boolean): Promise<void> {
  await removeStaleTemps(p);
  const temp = tempPath(p);
  let fh: FileHandle;
  try {
    fh = await fsp.open(temp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o600);
  } catch (e) {
    throw new UserError(`cannot write ${p.path}: creating a temporary file in ${p.dir} failed (${errno(e) ?? (e as Error).message})`);
  }
  await renameIntoPlace(p, temp, async () => {
    try {
      try {
        if (content === 'keep-current') await copyCurrent(p, fh);
        else await fh.writeFile(content);
      } catch (e) {
        const code = errno(e);
        if (code !== 'ENOSPC' && code !== 'EDQUOT') throw e;
        const why = code === 'ENOSPC' ? 'no space left on the device' : 'the disk quota is exhausted';
        throw new UserError(`cannot write ${p.path}: ${why} (${code}); ${replacing === 'nothing' ? 'nothing was created' : 'the old content is unchanged'} and the temporary file was removed`);
      }
      // Owner before mode: chown may clear mode bits; both before the name is visible.
      await fh.chown(attrs.uid, attrs.gid);
      await fh.chmod(attrs.mode);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await clearForReplacement(p, replacing, recursive, false);
  });
}

/** Like store: a temporary directory with its attributes set, renamed into place. */
async function createDirectory(p: Place, attrs: Attributes, replacing: 'nothing' | 'file'): Promise<void> {
  await removeStaleTemps(p);
  const temp = tempPath(p);
  try {
    await fsp.mkdir(temp, 0o700);
  } catch (e) {
    throw new UserError(`cannot create ${p.path}: creating a temporary directory in ${p.dir} failed (${errno(e) ?? (e as Error).message})`);
  }
  await renameIntoPlace(p, temp, async () => {
    const fh = await fsp.open(temp, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
    try {
      await fh.chown(attrs.uid, attrs.gid);
      await fh.chmod(attrs.mode);
      await fh.sync();
    } finally {
      await fh.close();
    }
    // rename() cannot put a directory over a file: the file goes first.
    await clearForReplacement(p, replacing, false, true);
  });
}

/**
 * Sets a directory's attributes in place, through a descriptor opened without following a symlink.
 * An owner change passes through the intersection of the old and new permissions, so no moment
 * grants anyone more than the old or the new state does.
 */
async function updateDirectory(p: Place, attrs: Attributes): Promise<void> {
  let fh: FileHandle;
  try {
    fh = await fsp.open(p.at, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  } catch (e) {
    if (errno(e) === 'ELOOP') throw symlinkError(p.path, await fsp.readlink(p.at).catch(() => '?'));
    if (errno(e) === 'ENOTDIR') throw changedWhileReading(p.path);
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

async function remove(p: Place, type: 'file' | 'directory' | 'link', recursive: boolean): Promise<void> {
  const st = await lstatOrUndefined(p.at);
  if (!st) return;
  if (type === 'link') {
    if (!st.isSymbolicLink()) throw changedWhileReading(p.path);
    await fsp.unlink(p.at); // the link, never its target
  } else if (st.isSymbolicLink()) {
    throw symlinkError(p.path, await fsp.readlink(p.at));
  } else if (type === 'file') {
    if (!st.isFile()) throw changedWhileReading(p.path);
    await fsp.unlink(p.at);
  } else {
    if (!st.isDirectory()) throw changedWhileReading(p.path);
    await removeDirectory(p, recursive);
  }
  await syncDirectory(p.inDir);
}

/**
 * A new link beside the target, given its owner and group (lchown), renamed over what is there: the
 * path shows the old entry or the new link, never nothing (a directory being replaced goes first,
 * as rename() cannot put a link over it).
 */
async function createLink(p: Place, target: string, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>, replacing: Replacing, recursive: boolean): Promise<void> {
  await removeStaleTemps(p);
  const temp = tempPath(p);
  try {
    await fsp.symlink(target, temp);
  } catch (e) {
    throw new UserError(`cannot create ${p.path}: creating a temporary link in ${p.dir} failed (${errno(e) ?? (e as Error).message})`);
  }
  await renameIntoPlace(p, temp, async () => {
    await lchownPart(temp, owner);
    await clearForReplacement(p, replacing, recursive, false);
  });
}

async function updateLink(p: Place, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>): Promise<void> {
  const st = await fsp.lstat(p.at);
  if (!st.isSymbolicLink()) throw changedWhileReading(p.path);
  await lchownPart(p.at, owner);
}

/** lchown with -1 (leave as it is) for what is not given. */
async function lchownPart(at: string, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>): Promise<void> {
  if (owner.uid === undefined && owner.gid === undefined) return;
  await fsp.lchown(at, owner.uid ?? -1, owner.gid ?? -1);
}

/**
 * Right before the rename: the path must still be what the decision saw, and never a symlink
 * (unless a link is what is being replaced).
 * A directory being replaced goes now; so does a file a new directory replaces (rename() cannot
 * put a directory over a file). A file a new file replaces stays: the rename swaps it atomically.
 */
async function clearForReplacement(p: Place, replacing: Replacing, recursive: boolean, forDirectory: boolean): Promise<void> {
  const st = await lstatOrUndefined(p.at);
  if (!st) return;
  if (st.isSymbolicLink() && replacing === 'link') return; // the rename swaps it atomically
  if (st.isSymbolicLink()) {
    const target = await fsp.readlink(p.at).catch(() => '?');
    throw new UserError(`${p.path} became a symbolic link (to ${target}) while govern was writing it; nothing was written through it and it was left as it is`);
  }
  if (st.isFile() && replacing === 'file') {
    if (forDirectory) await fsp.unlink(p.at);
    return;
  }
  if (st.isDirectory() && replacing === 'directory') return removeDirectory(p, recursive);
  throw changedWhileReading(p.path);
}

async function removeDirectory(p: Place, recursive: boolean): Promise<void> {
  if (recursive) return removeTreeByHandle(p.inDir, nodePath.basename(p.at), p.path);
  try {
    await fsp.rmdir(p.at);
  } catch (e) {
    if (errno(e) === 'ENOTEMPTY' || errno(e) === 'EEXIST') {
      throw new UserError(`${p.path} is no longer empty; set force = true to remove it and everything in it`);
    }
    throw e;
  }
}

/** Copies the current file's bytes (content not managed, attributes changing). */
async function copyCurrent(p: Place, out: FileHandle): Promise<void> {
  let input: FileHandle;
  try {
    input = await openWithoutAtime(p.at, READ_NOFOLLOW);
  } catch (e) {
    if (errno(e) === 'ELOOP') throw symlinkError(p.path, await fsp.readlink(p.at).catch(() => '?'));
    throw e;
  }
  try {
    if (!(await input.stat()).isFile()) throw changedWhileReading(p.path);
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
async function renameIntoPlace(p: Place, temp: string, prepare: () => Promise<void>): Promise<void> {
  let renamed = false;
  try {
    await prepare();
    await fsp.rename(temp, p.at);
    renamed = true;
    await syncDirectory(p.inDir);
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
function tempPath(p: Place): string {
  return `${p.inDir}/${tempPrefix(p)}${crypto.randomBytes(8).toString('hex')}`;
}

function tempPrefix(p: Place): string {
  return `.${nodePath.basename(p.path).slice(0, 100)}.govern-`;
}

/** A temporary entry this old was left by a runner that was killed: no write takes this long. */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Removes what a killed earlier write of this path left beside it: entries named as tempPath names
 * them (`.NAME.govern-` and 16 hex digits), owned by us and older than STALE_TEMP_MS, so a write under
 * way in another process is never touched. Links inside a left directory are removed, not followed.
 */
async function removeStaleTemps(p: Place): Promise<void> {
  const prefix = tempPrefix(p);
  const names = (await fsp.readdir(p.inDir).catch(() => [] as string[])).filter((n) => n.startsWith(prefix) && /^[0-9a-f]{16}$/.test(n.slice(prefix.length)));
  const cutoff = Date.now() - STALE_TEMP_MS;
  for (const name of names) {
    const entry = `${p.inDir}/${name}`;
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

function openSyncWithoutAtime(path: string, flags: number): number {
  try {
    return fs.openSync(path, flags | C.O_NOATIME);
  } catch (e) {
    // O_NOATIME needs ownership or CAP_FOWNER
    if (errno(e) === 'EPERM') return fs.openSync(path, flags);
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
