// A call of a runner for one resource, as data: what govern passes (the argv and the variables of
// the call, docs/runners.md) and what comes back. Below apply/ so that report/ can show a call and
// its result without importing the code that makes it (docs/architecture.md).
import { encodeArgs, type CallVariable } from '../shared/protocol.js';
import { hiddenKey, SENSITIVE } from '../shared/sensitive.js';
import { displayCommand } from '../shared/shell-display.js';
import type { Resource } from './resource.js';

/** The bytes the names may take: an environment variable over 128 KiB cannot be passed (Linux's MAX_ARG_STRLEN). */
export const MANAGED_CHILDREN_BYTES = 64 * 1024;

export interface Call {
  resource: Resource;
  executable: string;
  /** Notification mode. */
  signal?: string;
  /** Noop mode: the RREFs of the resources this one comes after that would change (GOVERN_NOOP_PENDING). */
  pending?: string[];
  /**
   * Called in noop mode in a real run: it comes after resources that `noop = true` kept from
   * changing (their RREFs; `pending` lists them and the rest of what would change upstream).
   */
  heldAfter?: string[];
  /** A resource with `purge = true`: the names of its directory's entries the tree manages (GOVERN_MANAGED_CHILDREN). */
  managed?: string[];
}

export interface CallResult {
  ok: boolean;
  changed: boolean;
  message: string;
  log: string[];
  /** A unified diff of what changed (or would change), lines joined by "\n", when the runner gave one. */
  diff?: string;
  durationMs: number;
}

export function callArgv(call: Call): string[] {
  return [call.resource.name, ...encodeArgs(call.resource.attrs)];
}

/** The variables that belong to one call; a resource with `noop = true`, and what comes after its changes, are called in noop mode in every run. */
export function callEnv(call: Call, runNoop: boolean): Partial<Record<CallVariable, string>> {
  const env: Partial<Record<CallVariable, string>> = { GOVERN_STATE_DIR: call.resource.stateDir };
  const noop = runNoop || call.resource.noop === true || (call.heldAfter?.length ?? 0) > 0;
  if (noop) env.GOVERN_NOOP = '1';
  if (noop && call.pending?.length) env.GOVERN_NOOP_PENDING = call.pending.join('\n');
  if (call.signal !== undefined) env.GOVERN_SIGNAL = call.signal;
  if (call.managed !== undefined) env.GOVERN_MANAGED_CHILDREN = managedChildrenValue(call.managed, call.resource.name);
  return env;
}

/** The invocation as a user could paste it, with the variables that belong to the call; hidden values as `key=<sensitive>`. */
export function displayCall(call: Call, noop: boolean): string {
  const { resource } = call;
  const shown = Object.fromEntries(Object.entries(resource.attrs).map(([key, value]) => [key, hiddenKey(resource, key) ? SENSITIVE : value]));
  return displayCommand([call.executable, resource.name, ...encodeArgs(shown)], callEnv(call, noop));
}

/** The value of GOVERN_MANAGED_CHILDREN; a list too long to pass is an error rather than a shorter list. */
export function managedChildrenValue(names: string[], name: string): string {
  const value = names.join('\n');
  if (Buffer.byteLength(value) > MANAGED_CHILDREN_BYTES) {
    throw new Error(`the names of the ${names.length} managed entries of ${name} take over ${MANAGED_CHILDREN_BYTES / 1024} KiB, more than govern passes to a runner; purge cannot know what it may remove`);
  }
  return value;
}
