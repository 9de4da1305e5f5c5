// What a managed path holds, read through its held parent (walk.ts): its status (a file hashed
// through one descriptor, a link's target, a directory's emptiness), a directory's entries, and a
// `source` file read as root without following a link chase does not allow.
import crypto from 'node:crypto';
import fs, { constants as C, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import nodePath from 'node:path';
import { chase, lstatOrUndefined as lstatOrUndefinedSync } from '../../../shared/chase.js';
import { describeFileKind } from '../../../shared/file-kind.js';
import { UserError } from '../../../shared/errors.js';
import { changedWhileReading } from './errors.js';
import type { Attributes, Current, Listing, StatusOptions } from './state.js';
import { CHUNK, errno, inPlace, openSyncWithoutAtime, openWithoutAtime, READ_NOFOLLOW, shownByName, type Place } from './walk.js';

export function status(path: string, options: StatusOptions): Promise<Current> {
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
export async function readSource(file: string): Promise<Buffer> {
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
 * What a directory holds, read through the directory itself opened without following a link in its
 * place; `resolved` is where it is once links on the way are followed (chase's rule).
 */
export async function list(p: Place): Promise<Listing> {
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

async function isEmptyDirectory(path: string): Promise<boolean> {
  const dir = await fsp.opendir(path);
  try {
    return (await dir.read()) === null;
  } finally {
    await dir.close();
  }
}

export function attributesOf(st: Stats): Attributes {
  return { uid: st.uid, gid: st.gid, mode: st.mode & 0o7777 };
}

