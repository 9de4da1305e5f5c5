// Reading and writing the edited file through the file runner's posix provider, never a copy of it:
// the same lstat/O_NOFOLLOW reading with its symlink refusal, and the same atomic store (temporary
// file beside it, fsync, rename, directory fsync) that keeps the owner, group and mode it is given.
import { UserError } from '../../shared/errors.js';
import { posixProvider } from '../lib/file/posix.js';
import type { Attributes } from '../lib/file/state.js';
import type { LineCurrent } from './decide.js';

/** Larger files are refused: the whole file is held in memory to be edited. */
export const SIZE_LIMIT = 16 * 1024 * 1024;

/** The owner, group and mode of a file the runner creates (`create = true`). */
export const NEW_FILE_MODE = 0o644;

export interface ReadFile {
  current: LineCurrent;
  /** A regular file's owner, group and mode, which a rewrite keeps. */
  attrs?: Attributes;
  /** Its SHA-256, to check the write. */
  sha256?: string;
}

export async function readFile(path: string): Promise<ReadFile> {
  const found = await posixProvider.status(path, { checkEmpty: false, keepContentUpTo: SIZE_LIMIT });
  switch (found.type) {
    case 'absent':
      return { current: { type: 'absent', parent: found.parent } };
    case 'symlink':
      return { current: { type: 'symlink', target: found.target } };
    case 'directory':
      return { current: { type: 'other', kind: 'a directory' } };
    case 'other':
      return { current: { type: 'other', kind: found.kind } };
    case 'file':
      if (found.content === undefined) throw new UserError(`${path} is larger than ${SIZE_LIMIT / 1024 / 1024} MiB; the line runner edits files up to that size`);
      return { current: { type: 'file', content: found.content }, attrs: found.attrs, sha256: found.sha256 };
  }
}

/**
 * Replaces the file atomically with this content and the attributes it had; a file that does not
 * exist is created with the runner's own user and group and mode 0644.
 */
export async function writeFile(path: string, content: Buffer, attrs: Attributes | undefined): Promise<void> {
  if (attrs) return posixProvider.store(path, content, attrs, 'file', false);
  const created = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, mode: NEW_FILE_MODE };
  return posixProvider.store(path, content, created, 'nothing', false);
}
