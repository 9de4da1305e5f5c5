// Whether a user's regular expression matches somewhere in a line, through the bounded matcher
// (src/shared/bounded-match.ts), so that a pattern that backtracks without end stops the resource
// with a clear error after a second instead of hanging the run.
import { UserError } from '../../shared/errors.js';
import { matchesWhole, matchStopped } from '../../shared/bounded-match.js';

/**
 * The pattern compiled on its own when govern checked it (the `regex` type), so its groups are
 * balanced and wrapping it keeps its meaning: a match anywhere in the line.
 */
export function searchLine(pattern: string, line: string): boolean {
  const verdict = matchesWhole(`.*(?:${pattern}).*`, line, 'su');
  if (verdict === undefined) throw new UserError(matchStopped(pattern, line));
  return verdict;
}
