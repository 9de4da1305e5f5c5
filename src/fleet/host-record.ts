// What a host tells the fleet: the summary of its last run (the run report without resources' logs
// and diffs, which may hold what a file contains) and its facts (without `secret/` facts). Both
// are JSON values under the host's key; `govern fleet` and the templates read them back. A pulled
// tree's files are named as the repository has them, as in the run's report (report/json.ts).
import { repositoryPaths } from '../shared/pulled-paths.js';
import { addSecretText } from '../shared/secret-texts.js';
import type { LocalFacts } from '../facts/local-facts.js';
import { runSucceeded } from '../report/exit-code.js';
import type { RunReport, RunSummary } from '../report/types.js';
import { isSensitiveFact } from '../shared/sensitive.js';

/** The value under the host's key in govern_runs. Version 1; fields are only ever added. */
export interface HostRun {
  format: 1;
  host: string;
  govern_version: string;
  started_at: string;
  /** ISO 8601, UTC: when the run ended. */
  ended_at: string;
  state: string;
  commit?: string;
  /** true when the run applied everything without a failure. */
  success: boolean;
  summary: RunSummary;
  /** Problems that stopped the run before anything was applied (their messages, first 10). */
  errors: string[];
  /** The resources that failed: ref and message (first 20). */
  failed: { ref: string; message: string }[];
  /** The health checks after the run; absent when none ran. */
  health?: { passed: number; failed: number; failures: string[] };
  /** The run went back to the last good commit: `from` failed (why: `reason`), `to` was applied again. */
  reverted?: { from: string; to: string; reason: string };
  /** Since when this host's runs of `commit` have been healthy without a break (ISO 8601; rollout-fields.ts). */
  healthy_since?: string;
  /** The commits this host reverted, newest last (at most 20): no host of a staged rollout applies them. */
  quarantined?: string[];
  /** The stage of the tree's rollout.hcl this host is in, from 1; absent without rollout.hcl. */
  stage?: number;
}

/** The value under the host's key in govern_facts. */
export interface HostFacts {
  format: 1;
  host: string;
  /** When the facts were read, ISO 8601. */
  at: string;
  facts: Record<string, string>;
}

export function hostRun(host: string, r: RunReport): HostRun {
  const s = r.summary;
  return {
    format: 1,
    host,
    govern_version: r.govern_version,
    started_at: r.started_at,
    ended_at: new Date(Date.parse(r.started_at) + s.duration_ms).toISOString(),
    state: r.state,
    ...(r.commit !== undefined ? { commit: r.commit } : {}),
    success: runSucceeded(r),
    summary: s,
    errors: r.errors.slice(0, 10).map((e) => repositoryPaths(e.message)),
    failed: r.resources
      .filter((x) => x.status === 'failed')
      .slice(0, 20)
      .map((x) => ({ ref: repositoryPaths(x.ref), message: repositoryPaths(x.message) })),
    ...(r.health ? { health: { ...r.health, failures: r.health.failures.slice(0, 20).map(repositoryPaths) } } : {}),
    ...(r.reverted ? { reverted: { from: r.reverted.from, to: r.reverted.to, reason: r.reverted.reason } } : {}),
  };
}

/**
 * Every fact of the host that evaluates, but those under secret/ (a fact that fails is left out).
 * The secret/ ones are read too, only for the mask of what is published: a failing command may
 * have printed one into the run's failure message (docs/security.md).
 */
export async function publishableFacts(facts: Pick<LocalFacts, 'names' | 'load' | 'peek'>): Promise<Record<string, string>> {
  const all = await facts.names();
  await facts.load(all);
  const values: Record<string, string> = {};
  for (const name of all) {
    const result = facts.peek(name);
    if (!result?.ok) continue;
    if (isSensitiveFact(name)) addSecretText(result.value);
    else values[name] = result.value;
  }
  return values;
}
