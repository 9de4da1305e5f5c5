// The one diff builder of every runner that changes a file's content (file, line, and those that
// write whole files): a unified diff for the result, or none, with a log line saying why: a file not
// everyone may read (private-content.ts), too large, binary, or too many changes.
import { isBinary, unifiedDiff } from '../../shared/text-diff.js';
import { privateContent } from './private-content.js';

/**
 * The diff of `before` -> `after` at `file`. `modes` are its mode now and the one it is given (the
 * rule of private-content.ts); `before` is undefined when it was too large to keep, as is content
 * over `limit` bytes.
 */
export function contentDiff(file: string, before: Buffer | undefined, after: Buffer, modes: readonly (number | undefined)[], log: (line: string) => void, limit = Infinity): string | undefined {
  const none = (why: string): undefined => void log(`content changed (diff not shown: ${why})`);
  const closed = privateContent(file, modes);
  if (closed !== undefined) return none(closed);
  if (before === undefined || before.length > limit || after.length > limit) return none(`larger than ${limit / 1024 / 1024} MiB`);
  if (isBinary(before) || isBinary(after)) return none('binary content');
  const lines = unifiedDiff(before.toString('utf8'), after.toString('utf8'), `${file}\tcurrent`, `${file}\tdesired`);
  if (lines === undefined) return none('too many changes');
  return lines.length > 0 ? lines.join('\n') : undefined;
}
