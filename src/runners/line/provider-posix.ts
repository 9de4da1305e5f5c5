// The line provider: reading the edited file with the one whole-file reader (lib/whole-file) and writing it with the
// posix file operations, never a copy of it: the lstat/O_NOFOLLOW reading with its symlink refusal,
// and the atomic store (temporary file beside it, fsync, rename, directory fsync) that keeps the
// owner, group and mode it is given.
import type { ProviderContext } from '../../shared/command-runner.js';
import { posixProvider } from '../lib/file/posix.js';
import type { Attributes } from '../lib/file/state.js';
import { readWhole } from '../lib/whole-file/provider-posix.js';
import type { LineCurrent } from './decide.js';

/** The owner, group and mode of a file the runner creates (`create = true`). */
export const NEW_FILE_MODE = 0o644;

export interface ReadFile {
  current: LineCurrent;
  /** A regular file's owner, group and mode, which a rewrite keeps. */
  attrs?: Attributes;
  /** Its SHA-256, to check the write. */
  sha256?: string;
}

export interface LineProvider {
  status(path: string): Promise<ReadFile>;
  /** Replaces the file atomically with this content and the attributes it had (a new file: NEW_FILE_MODE). */
  store(path: string, content: Buffer, attrs: Attributes | undefined): Promise<void>;
}

/** The context is every provider's (docs/adding-a-runner.md); the file operations need none of it. */
export function posixLineProvider(_context: ProviderContext): LineProvider {
  return { status: readFile, store: writeFile };
}

async function readFile(path: string): Promise<ReadFile> {
  const found = await readWhole(path, '; the line runner edits files up to that size');
  if (found.type !== 'file') return { current: found };
  return { current: { type: 'file', content: found.content }, attrs: found.attrs, sha256: found.sha256 };
}

/**
 * Replaces the file atomically with this content and the attributes it had; a file that does not
 * exist is created with the runner's own user and group and mode 0644.
 */
async function writeFile(path: string, content: Buffer, attrs: Attributes | undefined): Promise<void> {
  if (attrs) return posixProvider.store(path, content, attrs, 'file', false);
  const created = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, mode: NEW_FILE_MODE };
  return posixProvider.store(path, content, created, 'nothing', false);
}
