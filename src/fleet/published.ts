// What another host published is untrusted input (docs/security.md, "Published data"): each value
// read from the buckets is checked against its record's schema before govern uses it, and a value
// that does not follow it is one host's problem, said in words, never the whole fleet's failure.
import type { HostFacts, HostRun } from './host-record.js';
import { rolloutFieldsProblem } from './rollout-fields.js';

/** How far ahead of this clock a record's time may be (clocks differ): beyond, it is refused. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** A published value that passed its schema, or why it did not. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const SUMMARY_COUNTS = ['resources', 'changed', 'unchanged', 'failed', 'skipped', 'excluded', 'notifications_sent', 'notifications_noop', 'notifications_failed', 'notifications_skipped', 'duration_ms'] as const;

type Shape = Record<string, unknown>;

function isObject(v: unknown): v is Shape {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A time as ISO 8601 that is not after now (beyond the skew); else what is wrong with it. */
function timeProblem(field: string, v: unknown, nowMs: number): string | undefined {
  if (typeof v !== 'string') return `${field} is not a string`;
  const at = Date.parse(v);
  if (!Number.isFinite(at)) return `${field} is not a date`;
  if (at > nowMs + CLOCK_SKEW_MS) return `${field} is in the future`;
  return undefined;
}

function runProblem(key: string, v: unknown, nowMs: number): string | undefined {
  if (!isObject(v)) return 'not a JSON object';
  if (v.format !== 1) return 'format is not 1';
  if (v.host !== key) return 'host is not its key';
  for (const field of ['govern_version', 'state'] as const) if (typeof v[field] !== 'string') return `${field} is not a string`;
  if (v.commit !== undefined && typeof v.commit !== 'string') return 'commit is not a string';
  if (typeof v.success !== 'boolean') return 'success is not true or false';
  const times = timeProblem('started_at', v.started_at, nowMs) ?? timeProblem('ended_at', v.ended_at, nowMs);
  if (times !== undefined) return times;
  if (!isObject(v.summary)) return 'summary is not an object';
  for (const count of SUMMARY_COUNTS) {
    const n = v.summary[count];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return `summary.${count} is not a count`;
  }
  if (!Array.isArray(v.errors) || !v.errors.every((e) => typeof e === 'string')) return 'errors is not a list of strings';
  if (!Array.isArray(v.failed) || !v.failed.every((f) => isObject(f) && typeof f.ref === 'string' && typeof f.message === 'string')) return 'failed is not a list of {ref, message}';
  return rolloutFieldsProblem(v, (field, t) => timeProblem(field, t, nowMs));
}

/** A value of govern_runs under `key`, checked. */
export function checkRun(key: string, v: unknown, nowMs: number): Checked<HostRun> {
  const problem = runProblem(key, v, nowMs);
  return problem === undefined ? { ok: true, value: v as HostRun } : { ok: false, problem: `its published run: ${problem}` };
}

/** A value of govern_facts under `key`, checked: every fact a string. */
export function checkFacts(key: string, v: unknown, nowMs: number): Checked<HostFacts> {
  const problem = factsProblem(key, v, nowMs);
  return problem === undefined ? { ok: true, value: v as HostFacts } : { ok: false, problem: `its published facts: ${problem}` };
}

/**
 * What a reader that looks at no fact but `names` keeps of a facts value (fleet-status.ts, of 100,000
 * hosts' facts): the value checked as it comes and cut to those facts. checkFacts and the selection
 * say of the cut value what they say of the whole: one that fails its check is kept whole, and one
 * that passes still passes later (its time only grows older).
 */
export function factsCutTo(names: readonly string[], nowMs: number): (key: string, v: unknown) => unknown {
  return (key, v) => {
    const c = checkFacts(key, v, nowMs);
    if (!c.ok) return v;
    const { format, host, at, facts } = c.value;
    return { format, host, at, facts: Object.fromEntries(names.filter((n) => Object.hasOwn(facts, n)).map((n) => [n, facts[n]])) };
  };
}

function factsProblem(key: string, v: unknown, nowMs: number): string | undefined {
  if (!isObject(v)) return 'not a JSON object';
  if (v.format !== 1) return 'format is not 1';
  if (v.host !== key) return 'host is not its key';
  const at = timeProblem('at', v.at, nowMs);
  if (at !== undefined) return at;
  if (!isObject(v.facts)) return 'facts is not an object';
  for (const [name, value] of Object.entries(v.facts)) if (typeof value !== 'string') return `the fact ${JSON.stringify(name)} is not a string`;
  return undefined;
}
