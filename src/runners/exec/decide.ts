// The exec decision table, as a pure function. The guards (`unless`, `onlyif`) are commands, so
// the decision asks for them one at a time: it returns `check` for the next guard it needs, the
// runner runs it and calls `decide` again with its exit code. A guard whose answer cannot change
// the outcome is never run.

export const NOOP_EXECUTE = 'Would have executed';
export const NOOP_EXECUTE_VIA_SUBSCRIBE = 'Would have executed via subscribe';

/** The properties the decision reads. */
export interface DecisionInputs {
  creates?: string;
  refreshOnly: boolean;
  unless: string[];
  onlyif: string[];
}

export interface ExecStatus {
  /** GOVERN_SIGNAL, when notified: refresh, the one signal the description accepts. */
  signal?: string;
  /** The `creates` file exists (false without `creates`). */
  createsExists: boolean;
  /** Exit codes of the `unless` commands run so far, in order. */
  unlessExits: number[];
  /** Exit codes of the `onlyif` commands run so far, in order. */
  onlyifExits: number[];
}

export type Guard = 'unless' | 'onlyif';

export type Decision =
  | { action: 'check'; guard: Guard; index: number }
  | { action: 'skip'; message: string }
  | { action: 'execute'; viaSubscribe: boolean; noopMessage: string };

/**
 * | condition                               | action   |
 * |-----------------------------------------|----------|
 * | refresh signal (notify or subscribe)    | execute  |
 * | creates file exists                     | skip     |
 * | refresh_only, no signal                 | skip     |
 * | an unless command exits 0               | skip     |
 * | an onlyif command exits non-zero        | skip     |
 * | otherwise                               | execute  |
 */
export function decide(desired: DecisionInputs, status: ExecStatus): Decision {
  if (status.signal !== undefined) return { action: 'execute', viaSubscribe: true, noopMessage: NOOP_EXECUTE_VIA_SUBSCRIBE };
  if (desired.creates !== undefined && status.createsExists) {
    return { action: 'skip', message: `not run: ${desired.creates} exists` };
  }
  if (desired.refreshOnly) {
    return { action: 'skip', message: 'not run: refresh_only and not notified' };
  }
  for (const [index, command] of desired.unless.entries()) {
    const exit = status.unlessExits[index];
    if (exit === undefined) return { action: 'check', guard: 'unless', index };
    if (exit === 0) return { action: 'skip', message: `not run: unless command ${JSON.stringify(command)} exited 0` };
  }
  for (const [index, command] of desired.onlyif.entries()) {
    const exit = status.onlyifExits[index];
    if (exit === undefined) return { action: 'check', guard: 'onlyif', index };
    if (exit !== 0) return { action: 'skip', message: `not run: onlyif command ${JSON.stringify(command)} exited ${exit}` };
  }
  return { action: 'execute', viaSubscribe: false, noopMessage: NOOP_EXECUTE };
}
