// The persistent runner protocol (docs/runners.md, "Persistent runners"): a runner whose description
// says it speaks it is started once per run and fed resources one at a time on stdin as JSON lines;
// it answers each with one JSON line on stdout. The arguments are the same `key=value` strings as in
// one-shot mode.
import type { CallVariable } from './protocol.js';

/** Set in the environment of a runner started in persistent mode. */
export const PERSISTENT_ENV = 'GOVERN_PERSISTENT';

export interface PersistentRequest {
  /** The resource name, then its `key=value` arguments: argv of the one-shot protocol. */
  argv: string[];
  /** The variables of the call (CALL_ENV) that are set. */
  env: Partial<Record<CallVariable, string>>;
}

export interface PersistentResponse {
  /** false: the resource failed (a one-shot runner's non-zero exit). */
  ok: boolean;
  changed: boolean;
  message?: string;
  /** A unified diff, its lines joined by "\n" (the one-shot protocol's `diff=` lines). */
  diff?: string;
  log: string[];
}
