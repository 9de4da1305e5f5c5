// The record of the last `govern pull`, beside the last run's: VAR_DIR/last-pull.json, replaced
// atomically after every pull, whatever its outcome. A refused or failed pull leaves the tree at its
// last good commit and the next run applies that, so the run's record alone would say all is well;
// `govern status` reads this one too (status.ts).
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';

export const LAST_PULL_FILE = 'last-pull.json';

/**
 * - `pulled`: DIR went to a new commit that descends from its old one (or was absent)
 * - `unchanged`: DIR was already at the commit
 * - `rolled-back`: DIR went to a commit that does not descend from its old one, with --allow-rollback
 * - `refused`: the commit is not trusted here (signature, environment, the allowed signers file)
 * - `rollback`: the commit would have taken DIR back (before its commit, or its anchor): refused
 * - `failed`: git could not fetch or check out, or the request was wrong
 * - `held`: the commit waits for the earlier stages of the tree's staged rollout (rollout.hcl); DIR stays
 */
export const PULL_OUTCOMES = ['pulled', 'unchanged', 'rolled-back', 'refused', 'rollback', 'failed', 'held'] as const;
export type PullOutcome = (typeof PULL_OUTCOMES)[number];

export interface PullRecord {
  /** When the pull ended (ISO 8601, UTC). */
  at: string;
  outcome: PullOutcome;
  repo: string;
  ref?: string;
  dir: string;
  /** The commit DIR is at after the pull. */
  current?: string;
  /** The commit fetched: the one applied, or the one refused. */
  commit?: string;
  /** What govern said about it (the refusal, or the failure). */
  message?: string;
  /** The last good commit of DIR (a run of it succeeded with its health checks), when there is one; a run updates it (docs/rollout.md). */
  good?: string;
  /** `held`: since when the pulls of DIR have been held, one after the other, whatever commit each held (ISO 8601, UTC). */
  held_since?: string;
  /** `held`: how long a rollout that goes well holds this host's pulls, from the held commit's rollout.hcl (seconds). */
  expected_hold_seconds?: number;
}

/** Readable by all (0644), as the last run's record: monitoring agents rarely run as root. */
export function writeLastPull(varDir: string, record: PullRecord): void {
  const file = path.join(varDir, LAST_PULL_FILE);
  try {
    fs.mkdirSync(varDir, { recursive: true, mode: 0o755 });
    writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, 0o644);
  } catch (e) {
    throw new UserError(`cannot record the pull in ${file}: ${(e as Error).message}`);
  }
}

export type LastPull = { kind: 'none' } | { kind: 'unreadable'; file: string; reason: string } | { kind: 'record'; file: string; record: PullRecord };

export function readLastPull(varDir: string): LastPull {
  const file = path.join(varDir, LAST_PULL_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    return { kind: 'unreadable', file, reason: (e as Error).message };
  }
  try {
    const record = JSON.parse(text) as PullRecord;
    const valid =
      typeof record === 'object' &&
      record !== null &&
      (PULL_OUTCOMES as readonly string[]).includes(record.outcome) &&
      typeof record.at === 'string' &&
      Number.isFinite(Date.parse(record.at)) &&
      typeof record.dir === 'string' &&
      typeof record.repo === 'string' &&
      ['current', 'commit', 'message', 'ref', 'good', 'held_since'].every((k) => record[k as keyof PullRecord] === undefined || typeof record[k as keyof PullRecord] === 'string') &&
      (record.expected_hold_seconds === undefined || (Number.isSafeInteger(record.expected_hold_seconds) && record.expected_hold_seconds >= 0));
    return valid ? { kind: 'record', file, record } : { kind: 'unreadable', file, reason: 'not a govern pull record' };
  } catch (e) {
    return { kind: 'unreadable', file, reason: (e as Error).message };
  }
}

/** A run made `good` DIR's last good commit: the record of the last pull of DIR says so too. */
export function noteGoodCommit(varDir: string, dir: string, good: string): void {
  const last = readLastPull(varDir);
  if (last.kind !== 'record' || last.record.dir !== dir || last.record.good === good) return;
  writeLastPull(varDir, { ...last.record, good });
}
