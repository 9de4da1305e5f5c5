// Reading, writing and removing a file a runner writes whole, through the file runner's posix
// provider: the same lstat/O_NOFOLLOW reading that refuses to follow a link, and the same atomic
// store (a temporary file beside it, fsync, rename, directory fsync).
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../../shared/errors.js';
import { isBinary, unifiedDiff } from '../../../shared/text-diff.js';
import { posixProvider } from '../file/posix.js';
import { privateContent } from '../private-content.js';
import type { WholeFileCurrent, WholeFileDesired, WholeFilePlan } from './decide.js';

/** Larger files are refused: the runners that write whole files write small ones. */
export const SIZE_LIMIT = 4 * 1024 * 1024;

export async function readWholeFile(file: string): Promise<WholeFileCurrent> {
  const found = await posixProvider.status(file, { checkEmpty: false, keepContentUpTo: SIZE_LIMIT });
  switch (found.type) {
    case 'absent':
      return { type: 'absent' };
    case 'symlink':
      return { type: 'symlink', target: found.target };
    case 'directory':
      return { type: 'other', kind: 'a directory' };
    case 'other':
      return { type: 'other', kind: found.kind };
    case 'file':
      if (found.content === undefined) throw new UserError(`${file} is larger than ${SIZE_LIMIT / 1024 / 1024} MiB`);
      return { type: 'file', content: found.content, mode: found.attrs.mode, uid: found.attrs.uid, gid: found.attrs.gid };
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

/**
 * A unified diff of an existing file's content change; none for binary content, too many changes,
 * or a file not everyone may read, now or with `desiredMode` (the rule of ../private-content.ts).
 */
export function wholeFileDiff(file: string, current: WholeFileCurrent, desired: Buffer | undefined, log: (line: string) => void, desiredMode?: number): string | undefined {
  if (current.type !== 'file' || desired === undefined) return undefined;
  const closed = privateContent(file, [current.mode, desiredMode]);
  if (closed !== undefined) {
    log(`content changed (diff not shown: ${closed})`);
    return undefined;
  }
  if (isBinary(current.content) || isBinary(desired)) {
    log('content changed (diff not shown: binary content)');
    return undefined;
  }
  const lines = unifiedDiff(current.content.toString('utf8'), desired.toString('utf8'), `${file}\tcurrent`, `${file}\tdesired`);
  if (lines === undefined) log('content changed (diff not shown: too many changes)');
  return lines && lines.length > 0 ? lines.join('\n') : undefined;
}
