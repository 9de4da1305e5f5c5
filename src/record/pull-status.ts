// What the last pull adds to `govern status` (status.ts): a refused or failed pull leaves the tree at
// its last good commit, which the runs keep applying with success, so the run alone would say OK.
// WARNING after a pull that failed or was refused, CRITICAL after one that would have taken the tree
// back (someone tried a rollback); nothing after a pull that went through.
import { formatDuration } from '../shared/duration.js';
import type { LastPull } from './last-pull.js';

export interface PullProblem {
  code: 1 | 2;
  text: string;
}

export function pullProblem(last: LastPull, nowMs: number): PullProblem | undefined {
  if (last.kind === 'none') return undefined;
  if (last.kind === 'unreadable') return { code: 1, text: `cannot read ${last.file}: ${last.reason}` };
  const r = last.record;
  const ago = `the last pull, ${formatDuration(Math.max(0, nowMs - Date.parse(r.at)))} ago,`;
  const why = r.message ?? 'no reason recorded';
  switch (r.outcome) {
    case 'rollback':
      return { code: 2, text: `${ago} was a rollback attempt, refused: ${why}` };
    case 'refused':
      return { code: 1, text: `${ago} was refused: ${why}` };
    case 'failed':
      return { code: 1, text: `${ago} failed: ${why}` };
    default:
      return undefined;
  }
}
