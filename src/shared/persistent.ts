// The persistent runner protocol (docs/runners.md, "Persistent runners"): a runner whose description
// says it speaks it is started once per run and fed resources on stdin as JSON lines, each with an
// id; it answers each, in order, with one JSON line on stdout that echoes the id. The arguments are
// the same `key=value` strings as in one-shot mode.
import type { CallVariable } from './protocol.js';

/** Set in the environment of a runner started in persistent mode. */
export const PERSISTENT_ENV = 'GOVERN_PERSISTENT';

/** The longest line govern reads from a persistent runner: the bound of a one-shot runner's output. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

export interface PersistentRequest {
  /** Numbers the requests sent to one process: 1, 2, 3... The answer carries it back. */
  id: number;
  /** The resource name, then its `key=value` arguments: argv of the one-shot protocol. */
  argv: string[];
  /** The variables of the call (CALL_ENV) that are set. */
  env: Partial<Record<CallVariable, string>>;
  /** Only to the process that serves several built-in runners (src/runners/host/main.ts): the runner asked. */
  runner?: string;
}

export interface PersistentResponse {
  /** The id of the request this answers. */
  id: number;
  /** false: the resource failed (a one-shot runner's non-zero exit). */
  ok: boolean;
  changed: boolean;
  message?: string;
  /** A unified diff, its lines joined by "\n" (the one-shot protocol's `diff=` lines). */
  diff?: string;
  log: string[];
}

/** A stdout line that claims to be an answer: a JSON object with an `ok` or an `id`. Other lines are log. */
export function answerShaped(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return 'ok' in value || 'id' in value ? (value as Record<string, unknown>) : undefined;
}

/** An answer-shaped value read strictly: the answer, or what is wrong with it. */
export function readAnswer(value: Record<string, unknown>): PersistentResponse | { problem: string } {
  const problems: string[] = [];
  const { id, ok, changed, message, diff, log } = value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) problems.push(id === undefined ? '"id" is missing' : `"id" is ${shown(id)}, not a request number`);
  if (typeof ok !== 'boolean') problems.push(ok === undefined ? '"ok" is missing' : `"ok" is ${shown(ok)}, not true or false`);
  if (changed !== undefined && typeof changed !== 'boolean') problems.push(`"changed" is ${shown(changed)}, not true or false`);
  if (message !== undefined && typeof message !== 'string') problems.push('"message" is not a string');
  if (diff !== undefined && typeof diff !== 'string') problems.push('"diff" is not a string');
  if (log !== undefined && !(Array.isArray(log) && log.every((l) => typeof l === 'string'))) problems.push('"log" is not a list of strings');
  if (problems.length > 0) return { problem: problems.join(', ') };
  return { id: id as number, ok: ok as boolean, changed: changed === true, message: message as string | undefined, diff: diff as string | undefined, log: (log as string[] | undefined) ?? [] };
}

/** A value in a message, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
