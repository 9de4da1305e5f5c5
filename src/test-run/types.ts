// What `govern test` finds for each host (docs/test.md): the three runs' reports as govern run --json
// printed them, the checks' results, and the verdict drawn from them.
import type { RunReport } from '../report/types.js';

/** One step of the sequence, in its order. */
export type StepName = 'noop' | 'run' | 'rerun';

/** A step's run: its report, or why there is none (govern could not start, printed no JSON). */
export interface StepResult {
  step: StepName;
  exit: number | null;
  report?: RunReport;
  /** Set when there is no report: what went wrong, with the end of govern's stderr. */
  error?: string;
}

export interface CheckResult {
  name: string;
  /** `tests/web.hcl:3`. */
  where: string;
  kind: string;
  passed: boolean;
  message: string;
}

/** What the sandbox writes back for one host (result.json). */
export interface SandboxResult {
  steps: StepResult[];
  checks: CheckResult[];
  /** Whether systemd was the sandbox's init (/run/systemd/system); absent: it was not. */
  systemd?: boolean;
}

/** Why a host failed, one kind per failure; `resources` names them where there are some. */
export interface Failure {
  kind: 'run-failed' | 'idempotence' | 'noop-fidelity' | 'check-failed' | 'sandbox';
  message: string;
  resources?: string[];
}

export interface HostVerdict {
  host: string;
  /** Where the facts came from: a snapshot file; undefined for this host's own. */
  facts?: string;
  passed: boolean;
  failures: Failure[];
  /** The steps that ran, in order; `applied` false: it stopped before applying (planning failed, no report). */
  steps: { step: StepName; exit: number | null; applied: boolean; changed: string[]; failed: string[] }[];
  checks: CheckResult[];
  /** Resources that only ever ran as noop (`noop = true`): their changes were never made. */
  noopOnly: string[];
  /** Resources the sandbox could only run as noop, and why: services that need systemd where none runs. */
  couldOnlyNoop: { ref: string; why: string }[];
  /** With --keep: the directory holding the files the sandbox changed. */
  kept?: string;
  durationMs: number;
}
