// Reading (the one whole-file reader, for the line runner too), writing and removing a file a runner
// writes whole, through the posix file operations (lib/file/posix.ts): the same lstat/O_NOFOLLOW reading that refuses to follow a link, and the same atomic
// store (a temporary file beside it, fsync, rename, directory fsync).
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../../shared/errors.js';
import { contentDiff } from '../content-diff.js';
import { posixProvider } from '../file/posix.js';
import type { Attributes, ParentState } from '../file/state.js';
import type { WholeFileCurrent, WholeFileDesired, WholeFilePlan } from './decide.js';

/**
 * Larger files are refused: a runner holds the whole file in memory to decide on it, and the line
 * runner to edit it. One limit for every runner that reads a file whole (the line runner's).
 */
export const SIZE_LIMIT = 16 * 1024 * 1024;

/** A file as a runner that reads it whole finds it. */
export type WholeFileFound =
  | { type: 'absent'; parent: ParentState }
  | { type: 'symlink'; target: string }
  | { type: 'other'; kind: string }
  | { type: 'file'; content: Buffer; attrs: Attributes; sha256: string };

/** The one whole-file reader: never through a link, at most SIZE_LIMIT; `refusal` ends the message of a larger file. */
export async function readWhole(file: string, refusal = ''): Promise<WholeFileFound> {
  const found = await posixProvider.status(file, { checkEmpty: false, keepContentUpTo: SIZE_LIMIT });
  switch (found.type) {
    case 'absent':
      return { type: 'absent', parent: found.parent };
    case 'symlink':
      return { type: 'symlink', target: found.target };
    case 'other':
      return { type: 'other', kind: found.kind };
    case 'directory':
      return { type: 'other', kind: 'a directory' };
    case 'file':
      if (found.content === undefined) throw new UserError(`${file} is larger than ${SIZE_LIMIT / 1024 / 1024} MiB${refusal}`);
      return { type: 'file', content: found.content, attrs: found.attrs, sha256: found.sha256 };
  }
}

export async function readWholeFile(file: string): Promise<WholeFileCurrent> {
  const found = await readWhole(file);
  switch (found.type) {
    case 'absent':
      return { type: 'absent' };
    case 'file':
      return { type: 'file', content: found.content, mode: found.attrs.mode, uid: found.attrs.uid, gid: found.attrs.gid };
    case 'symlink':
      return { type: 'symlink', target: found.target };
    case 'other':
      return { type: 'other', kind: found.kind };
  }
}

/** Carries out the plan; a missing parent directory is created (mode 0755) first. */
export async function applyWholeFile(desired: WholeFileDesired, plan: WholeFilePlan, current: WholeFileCurrent): Promise<void> {
  if (plan.action === 'remove') return posixProvider.remove(desired.path, 'file', false);
  if (plan.action !== 'write') return;
  fs.mkdirSync(path.dirname(desired.path), { recursive: true, mode: 0o755 });
  const attrs = { uid: desired.uid, gid: desired.gid, mode: desired.mode };
  await posixProvider.store(desired.path, desired.content!, attrs, current.type === 'file' ? 'file' : 'nothing', false);
  const after = await readWholeFile(desired.path);
  if (after.type !== 'file' || !after.content.equals(desired.content!)) {
    throw new UserError(`${desired.path} did not hold the content written; another process may have changed it, run again`);
  }
}

/** A unified diff of an existing file's content change (lib/content-diff.ts), with the mode it is given. */
export function wholeFileDiff(file: string, current: WholeFileCurrent, desired: Buffer | undefined, log: (line: string) => void, desiredMode?: number): string | undefined {
  if (current.type !== 'file' || desired === undefined) return undefined;
  return contentDiff(file, current.content, desired, [current.mode, desiredMode], log);
}
