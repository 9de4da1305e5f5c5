// The persistent runner protocol (docs/runners.md, "Persistent runners"): a runner that declares
// support is started once per run and fed resources one at a time on stdin as JSON lines; it answers
// each with one JSON line on stdout. The arguments are the same `key=value` strings as in one-shot mode.

/** A runner declares support with this marker in its first 1024 bytes (a comment, in any language). */
export const PERSISTENT_MARKER = /govern-runner:\s*persistent\b/;
export const MARKER_BYTES = 1024;
/** Set in the environment of a runner started in persistent mode. */
export const PERSISTENT_ENV = 'GOVERN_PERSISTENT';

export interface PersistentRequest {
  /** The resource name, then its `key=value` arguments: argv of the one-shot protocol. */
  argv: string[];
  /** The per-resource variables of the one-shot protocol: GOVERN_STATE_DIR, GOVERN_NOOP, GOVERN_SIGNAL. */
  env: Record<string, string>;
}

export interface PersistentResponse {
  /** false: the resource failed (a one-shot runner's non-zero exit). */
  ok: boolean;
  changed: boolean;
  message?: string;
  log: string[];
}
