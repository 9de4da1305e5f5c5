// Reads a template, state file or data file as govern's rules say (README, "State files"): a regular file
// only (a FIFO would block the run, /dev/zero never end), at most MAX_SOURCE_BYTES, and valid
// UTF-8, refused with its line rather than altered (replacement characters would be written out).
// A file of a state tree is read only inside the tree (docs/security.md, "Untrusted revisions").
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from './errors.js';
import { describeFileKind } from './file-kind.js';

export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/**
 * Texts that stand for files' contents on disk, by absolute path: the buffers an editor has open and
 * not saved, which `govern lsp` checks as they are (src/lsp/). No other command sets any.
 */
let unsaved: ReadonlyMap<string, string> | undefined;

export function setUnsavedTexts(texts: ReadonlyMap<string, string> | undefined): void {
  unsaved = texts;
}

/**
 * The file's text. With `tree` (the state tree's directory, for a file of the tree: a state file, a
 * template or partial of its templates.d or given by path, a data file, hierarchy.hcl, a module's
 * file), the file opened must lie inside the tree: neither a link nor `..` leads out of it.
 */
export function readSourceFile(file: string, tree?: string): string {
  if (tree !== undefined && !isInside(path.resolve(file), path.resolve(tree))) {
    throw new UserError({ file, message: "outside the state tree: govern reads a tree's files only inside the tree's directory" });
  }
  const open = unsaved?.get(path.resolve(file));
  if (open !== undefined) return open;
  let fd: number;
  try {
    // Non-blocking, so that opening a FIFO returns at once and is refused below.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError({ file, message: code === 'ENOENT' ? 'no such file' : `cannot read: ${(e as Error).message}` });
  }
  let bytes: Buffer;
  try {
    // Checked on the handle opened, so a link swapped after a check cannot lead elsewhere.
    if (tree !== undefined) outOfTree(fd, file, tree);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new UserError({ file, message: `not a regular file (${describeFileKind(st)}): govern reads only regular files` });
    if (st.size > MAX_SOURCE_BYTES) tooLarge(file);
    bytes = readAtMost(fd, file, st.size);
  } finally {
    fs.closeSync(fd);
  }
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    const line = bytes.subarray(0, at).filter((b) => b === 0x0a).length + 1;
    throw new UserError({ file, line, message: `not valid UTF-8 (byte 0x${bytes[at].toString(16).padStart(2, '0')}): govern reads templates and state files as UTF-8 and never alters them` });
  }
  return bytes.toString('utf8');
}

/** Whether `full` is `dir` or under it (both absolute and normalised). */
export function isInside(full: string, dir: string): boolean {
  return full === dir || full.startsWith(dir === '/' ? '/' : dir + '/');
}

/** Throws when the opened file's real path is not inside the tree's real directory. */
function outOfTree(fd: number, file: string, tree: string): void {
  let real: string;
  let root: string;
  try {
    real = fs.readlinkSync(`/proc/self/fd/${fd}`);
    root = fs.realpathSync(tree);
  } catch (e) {
    throw new UserError({ file, message: `cannot tell where it lies: ${(e as Error).message}` });
  }
  if (!isInside(real, root)) throw new UserError({ file, message: `a link to ${real}, outside the state tree: govern reads a tree's files only inside the tree's directory (move what it names into the tree)` });
}

/** The whole file, however its size changes while it is read, refused past the limit. */
function readAtMost(fd: number, file: string, expected: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(64 * 1024, Math.min(expected - total + 1, MAX_SOURCE_BYTES + 1 - total)));
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > MAX_SOURCE_BYTES) tooLarge(file);
  }
}

function tooLarge(file: string): never {
  throw new UserError({ file, message: `larger than ${MAX_SOURCE_BYTES / 1024 / 1024} MiB: govern refuses templates and state files this large` });
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || !isUtf8(bytes.subarray(i, i + length))) return i;
    i += length;
  }
  return bytes.length;
}
