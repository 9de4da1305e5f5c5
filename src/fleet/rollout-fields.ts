// What a host's record carries for a staged rollout (docs/rollout-stages.md): since when it has held
// its commit healthy, the commits it reverted (quarantined for the fleet), and its stage. Kept on the
// host in VAR_DIR/fleet-rollout.json, since the record in the bucket holds the last run only and a
// host's credentials may not read its own key back. Read from other hosts, every field is checked.
import fs from 'node:fs';
import path from 'node:path';
import { readRollout, stageOf } from '../pull/rollout-file.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import type { HostRun } from './host-record.js';

export const ROLLOUT_STATE_FILE = 'fleet-rollout.json';
export const MAX_QUARANTINED = 20;
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

interface RolloutState {
  commit?: string;
  healthy_since?: string;
  quarantined: string[];
}

/** "Healthy with commit C": the record's commit is C, the run succeeded, no health check failed, nothing reverted. */
export function healthyAt(run: HostRun, commit: string): boolean {
  return run.commit === commit && run.success && (run.health === undefined || run.health.failed === 0) && run.reverted === undefined;
}

/** The run's record with the rollout fields; the host's state is written for the next run. */
export function withRolloutFields(run: HostRun, varDir: string, facts: Record<string, string> | undefined): HostRun {
  const file = path.join(varDir, ROLLOUT_STATE_FILE);
  const before = readState(file);
  const quarantined = [...before.quarantined.filter((c) => c !== run.reverted?.from), ...(run.reverted && COMMIT.test(run.reverted.from) ? [run.reverted.from] : [])].slice(-MAX_QUARANTINED);
  const healthy = run.commit !== undefined && healthyAt(run, run.commit);
  const since = healthy ? (before.commit === run.commit && before.healthy_since !== undefined ? before.healthy_since : run.ended_at) : undefined;
  const state: RolloutState = { ...(healthy ? { commit: run.commit, healthy_since: since } : {}), quarantined };
  try {
    writeFileAtomic(file, `${JSON.stringify(state)}\n`, 0o644);
  } catch {
    // the record is still published; the next run starts the hold again
  }
  let stage: number | undefined;
  try {
    const rollout = readRollout(run.state);
    const i = rollout === undefined ? undefined : stageOf(rollout, facts);
    stage = i === undefined ? undefined : i + 1;
  } catch {
    // a rollout.hcl with mistakes is the pull's to report (stage-gate.ts)
  }
  return { ...run, ...(since !== undefined ? { healthy_since: since } : {}), ...(quarantined.length > 0 ? { quarantined } : {}), ...(stage !== undefined ? { stage } : {}) };
}

function readState(file: string): RolloutState {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RolloutState>;
    return {
      commit: typeof v.commit === 'string' ? v.commit : undefined,
      healthy_since: typeof v.healthy_since === 'string' ? v.healthy_since : undefined,
      quarantined: Array.isArray(v.quarantined) ? v.quarantined.filter((c): c is string => typeof c === 'string' && COMMIT.test(c)) : [],
    };
  } catch {
    return { quarantined: [] };
  }
}

const isCount = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const isText = (s: unknown, max: number) => typeof s === 'string' && s.length <= max;

/** What is wrong with the rollout and health fields of a published run, or undefined (published.ts). */
export function rolloutFieldsProblem(v: Record<string, unknown>, timeProblem: (field: string, v: unknown) => string | undefined): string | undefined {
  const h = v.health as Record<string, unknown> | undefined;
  if (h !== undefined && (typeof h !== 'object' || h === null || !isCount(h.passed) || !isCount(h.failed) || !Array.isArray(h.failures) || h.failures.length > 20 || !h.failures.every((f) => isText(f, 2_000)))) {
    return 'health is not {passed, failed, failures}';
  }
  const r = v.reverted as Record<string, unknown> | undefined;
  if (r !== undefined && (typeof r !== 'object' || r === null || !COMMIT.test(String(r.from)) || !COMMIT.test(String(r.to)) || !isText(r.reason, 2_000))) return 'reverted is not {from, to, reason} with whole commit ids';
  if (v.healthy_since !== undefined) {
    const t = timeProblem('healthy_since', v.healthy_since);
    if (t !== undefined) return t;
  }
  const q = v.quarantined;
  if (q !== undefined && (!Array.isArray(q) || q.length > MAX_QUARANTINED || !q.every((c) => typeof c === 'string' && COMMIT.test(c)))) return `quarantined is not a list of at most ${MAX_QUARANTINED} commits`;
  if (v.stage !== undefined && (!isCount(v.stage) || (v.stage as number) > 100)) return 'stage is not a stage number';
  return undefined;
}
