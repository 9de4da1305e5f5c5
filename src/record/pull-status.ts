// What the last pull adds to `govern status` (status.ts): a refused or failed pull leaves the tree at
// its last good commit, which the runs keep applying with success, so the run alone would say OK.
// WARNING after a pull that failed or was refused, CRITICAL after one that would have taken the tree
// back (someone tried a rollback); nothing after a pull that went through. A pull held by a staged
// rollout is how the rollout works: OK with a note, WARNING once held longer than the bound
// (--max-held, docs/rollout-stages.md): an earlier stage that never gets healthy needs a look.
import { PULL_PERIOD_MS } from '../pull/pull-period.js';
import { formatDuration } from '../shared/duration.js';
import type { LastPull } from './last-pull.js';

export interface PullProblem {
  code: 0 | 1 | 2;
  text: string;
}

/** The least bound of --max-held by default: longer than a stage's `after` usually is, and than a few pull periods. */
export const MIN_MAX_HELD_MS = 6 * 3_600_000;

/**
 * --max-held without the option: 6h, or longer when the held commit's rollout.hcl makes this host's
 * stage wait longer (the pull recorded how long: expected_hold_seconds) and one more pull period, so
 * that a rollout doing what it was told is never a WARNING.
 */
export function defaultMaxHeldMs(last: LastPull): number {
  const expected = last.kind === 'record' && last.record.outcome === 'held' ? last.record.expected_hold_seconds : undefined;
  return expected === undefined ? MIN_MAX_HELD_MS : Math.max(MIN_MAX_HELD_MS, expected * 1000 + PULL_PERIOD_MS);
}

/** How long the pulls of the tree have been held, when the last one was. */
export function heldMs(last: LastPull, nowMs: number): number | undefined {
  if (last.kind !== 'record' || last.record.outcome !== 'held') return undefined;
  const since = Date.parse(last.record.held_since ?? last.record.at);
  return Math.max(0, nowMs - (Number.isFinite(since) ? since : Date.parse(last.record.at)));
}

export function pullProblem(last: LastPull, nowMs: number, maxHeldMs = Infinity): PullProblem | undefined {
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
    case 'held': {
      const held = heldMs(last, nowMs)!;
      const over = held > maxHeldMs ? `, longer than ${formatDuration(maxHeldMs)}` : '';
      return { code: over ? 1 : 0, text: `${ago} held commit ${(r.commit ?? 'unknown').slice(0, 12)} (held for ${formatDuration(held)}${over}): ${why}` };
    }
    default:
      return undefined;
  }
}
