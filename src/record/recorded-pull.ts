// `govern pull`, recorded: every pull's outcome, a refused or failed one too, goes to
// VAR_DIR/last-pull.json for `govern status` (last-pull.ts); a pull that cannot be recorded says so,
// and keeps its own outcome and exit status.
import path from 'node:path';
import { pull, PullFailure, type PullRequest, type PullResult } from '../pull/pull.js';
import { UserError } from '../shared/errors.js';
import { readLastPull, writeLastPull, type PullRecord } from './last-pull.js';

type Outcome = Pick<PullRecord, 'outcome' | 'current' | 'commit' | 'message' | 'good' | 'held_since' | 'expected_hold_seconds'>;

/** The line to print: the old and the new commit. `warn` is told of a rollback, and of a record not written. */
export async function recordedPull(request: PullRequest, warn: (message: string) => void): Promise<string> {
  let result: PullResult;
  try {
    result = await pull(request);
  } catch (e) {
    if (e instanceof UserError) record(request, failureRecord(e), warn);
    throw e;
  }
  if (result.held !== undefined) {
    // A hold that begins now begins at the record's own time.
    const at = new Date().toISOString();
    record(request, { outcome: 'held', current: result.commit, commit: result.held.commit, message: result.held.reason, held_since: heldSince(request, at), expected_hold_seconds: Math.round(result.held.expectedMs / 1000) }, warn, at);
    return `${result.dir}: stays at ${result.commit}, ${result.held.commit} held: ${result.held.reason}\n`;
  }
  const signed = result.signer !== undefined ? ` (signed by ${result.signer})` : '';
  if (result.rolledBack) warn(`${result.dir}: rolled back from ${result.old} to ${result.commit}, which does not descend from it (--allow-rollback)${signed}`);
  record(request, { outcome: result.rolledBack ? 'rolled-back' : result.old === result.commit ? 'unchanged' : 'pulled', current: result.commit, commit: result.commit, ...(result.good ? { good: result.good } : {}) }, warn);
  return result.old === result.commit ? `${result.dir}: already at ${result.commit}${signed}\n` : `${result.dir}: ${result.old ?? 'none'} -> ${result.commit}${signed}\n`;
}

/** The hold goes on from the last pull of DIR if that one was held too (another commit's hold as well: DIR has not moved), else starts `now`. */
function heldSince(r: PullRequest, now: string): string {
  const last = readLastPull(r.varDir);
  const previous = last.kind === 'record' && last.record.outcome === 'held' && last.record.dir === path.resolve(r.dir) ? last.record.held_since : undefined;
  return previous !== undefined && Number.isFinite(Date.parse(previous)) ? previous : now;
}

function failureRecord(e: UserError): Outcome {
  if (e instanceof PullFailure) return { outcome: e.outcome, current: e.current, commit: e.commit, message: e.message };
  return { outcome: 'failed', message: e.message };
}

function record(r: PullRequest, outcome: Outcome, warn: (message: string) => void, at = new Date().toISOString()): void {
  try {
    writeLastPull(r.varDir, { at, repo: r.repo, ref: r.ref, dir: path.resolve(r.dir), ...outcome });
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    warn(e.message);
  }
}
