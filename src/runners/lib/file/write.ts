// The changes to a managed path, through its held parent (walk.ts): an atomic store (a temporary
// file beside it, fsync, rename, directory fsync), directory and link creation, attribute updates and
// removal, each checking right before the rename that the path still holds what the decision saw.
import crypto from 'node:crypto';
import { constants as C, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import nodePath from 'node:path';
import { UserError } from '../../../shared/errors.js';
import { removeTreeByHandle } from '../remove-tree.js';
import { changedWhileReading, symlinkError } from './errors.js';
import type { Attributes, Replacing, StoreContent } from './state.js';
import { CHUNK, errno, lstatOrUndefined, openWithoutAtime, READ_NOFOLLOW, type Place } from './walk.js';

/**
 * Writes a temporary file beside the target (O_EXCL, unpredictable name, 0600 while it fills),
 * gives it its owner, group and mode, fsyncs it, and renames it over the target: the path shows
 * either the old file or the complete new one with its final attributes, never anything between.
 */
export async function store(p: Place, content: StoreContent, attrs: Attributes, replacing: Replacing, recursive: boolean): Promise<void> {
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
export async function createDirectory(p: Place, attrs: Attributes, replacing: 'nothing' | 'file'): Promise<void> {
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
export async function updateDirectory(p: Place, attrs: Attributes): Promise<void> {
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

export async function remove(p: Place, type: 'file' | 'directory' | 'link', recursive: boolean): Promise<void> {
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
export async function createLink(p: Place, target: string, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>, replacing: Replacing, recursive: boolean): Promise<void> {
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

export async function updateLink(p: Place, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>): Promise<void> {
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

