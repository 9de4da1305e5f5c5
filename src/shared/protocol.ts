// The runner protocol shared by the core and the runners (docs/runners.md): how attributes become
// `key=value` arguments, how a runner reads them back, the result lines, and the variables of a call.
import { UserError } from './errors.js';

/** The variables that belong to one call; the rest of a runner's environment is its process's. */
export const CALL_ENV = ['GOVERN_STATE_DIR', 'GOVERN_NOOP', 'GOVERN_NOOP_PENDING', 'GOVERN_SIGNAL', 'GOVERN_MANAGED_CHILDREN'] as const;
export type CallVariable = (typeof CALL_ENV)[number];

/** govern's pid, given to every runner process: a runner not below it starts nothing (runners/kit/govern-gone.ts). */
export const GOVERN_PID_ENV = 'GOVERN_PID';

/**
 * Where, under GOVERN_RUN_DIR, a runner asks to be sent a signal at the end of the run: a file of two
 * lines, the RREF of a resource of its own and the signal (docs/runners.md, "At the end of the run").
 */
export const RUN_END_REQUESTS = 'notify';

export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attributes = Record<string, AttrValue>;

/** One scalar as it appears after `key=`: strings as they are, numbers in decimal, booleans true/false. */
export function encodeScalar(value: AttrValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot pass the number ${value} to a runner`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value); // a map or nested block: its JSON
}

/** One value as the texts after `key=`: a list gives one per element, in order; null gives none. */
export function encodeValues(value: AttrValue | readonly AttrValue[]): string[] {
  if (value === null) return [];
  return Array.isArray(value) ? value.map(encodeScalar) : [encodeScalar(value as AttrValue)];
}

/** Attributes to argv: a list becomes one argument per element, in order; null is left out. */
export function encodeArgs(attrs: Attributes): string[] {
  const argv: string[] = [];
  for (const [key, value] of Object.entries(attrs)) for (const text of encodeValues(value)) argv.push(`${key}=${text}`);
  return argv;
}

/** Linux's limit on one command-line argument (MAX_ARG_STRLEN), its NUL included: more gives E2BIG. */
export const MAX_ARGUMENT_BYTES = 128 * 1024;
/** What govern puts on one command line at most: half of the kernel's usual 2 MiB, the rest left to the environment. */
export const MAX_COMMAND_LINE_BYTES = 1024 * 1024;

/**
 * The first argument too long for a command line (or the last one, past the total), or undefined
 * when they all fit. A call that does not fit reaches its runner through the persistent protocol
 * (docs/runners.md, "Large values").
 */
export function tooLongArgument(argv: readonly string[]): string | undefined {
  let total = 0;
  for (const arg of argv) {
    const bytes = Buffer.byteLength(arg) + 1;
    total += bytes;
    if (bytes > MAX_ARGUMENT_BYTES || total > MAX_COMMAND_LINE_BYTES) return arg;
  }
  return undefined;
}

/** Attributes as the runner will read them back. */
export function paramsOf(attrs: Attributes): Params {
  const params = new Params();
  for (const key of Object.keys(attrs)) for (const text of encodeValues(attrs[key])) params.add(key, text);
  return params;
}

/** The arguments a runner received, keyed by name; a key may repeat (a list). */
export class Params {
  private readonly values = new Map<string, string[]>();

  constructor(pairs: Iterable<[string, string]> = []) {
    for (const [key, value] of pairs) this.add(key, value);
  }

  /** One more value of a key, after those it has. */
  add(key: string, value: string): void {
    const list = this.values.get(key);
    if (list) list.push(value);
    else this.values.set(key, [value]);
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  keys(): string[] {
    return [...this.values.keys()];
  }

  /** A single-valued key; given more than once is an error. */
  get(key: string): string | undefined {
    const list = this.values.get(key);
    if (!list) return undefined;
    if (list.length > 1) throw new UserError(`${key} is given ${list.length} times; it takes one value`);
    return list[0];
  }

  /** Every value of a list key, in order (a list of one arrives as a single `key=value`). */
  list(key: string): string[] {
    return [...(this.values.get(key) ?? [])];
  }

  /** Every value of a key as given, not copied: for readers that do not change it. */
  texts(key: string): readonly string[] | undefined {
    return this.values.get(key);
  }

  /** How many times a key is given. */
  count(key: string): number {
    return this.values.get(key)?.length ?? 0;
  }
}

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `RUNNER NAME key=value...`: the name first, then the arguments. */
export function decodeArgs(argv: string[]): { name: string; params: Params } {
  if (argv.length === 0) throw new UserError('usage: RUNNER NAME [key=value...]');
  const [name, ...rest] = argv;
  const pairs: [string, string][] = rest.map((arg) => {
    const eq = arg.indexOf('=');
    const key = eq < 0 ? '' : arg.slice(0, eq);
    if (!KEY.test(key)) throw new UserError(`argument "${arg}" is not key=value`);
    return [key, arg.slice(eq + 1)];
  });
  return { name, params: new Params(pairs) };
}

export interface RunnerResult {
  changed: boolean;
  message?: string;
  /** A unified diff of what changed (or would change), its lines joined by "\n". */
  diff?: string;
}

/** The result lines a runner prints on stdout: `changed=`, `message=`, and one `diff=` line per diff line. */
export function formatResult(result: RunnerResult): string {
  let out = `changed=${result.changed ? 'true' : 'false'}\n`;
  if (result.message !== undefined) out += `message=${oneLine(result.message)}\n`;
  if (result.diff !== undefined) for (const line of result.diff.split('\n')) out += `diff=${line}\n`;
  return out;
}

/** Reads a runner's stdout: result lines out, everything else is log. */
export function parseResult(stdout: string): RunnerResult & { log: string[] } {
  const result: RunnerResult & { log: string[] } = { changed: false, log: [] };
  const diff: string[] = [];
  for (const line of stdout.split('\n')) {
    if (line === 'changed=true') result.changed = true;
    else if (line === 'changed=false') result.changed = false;
    else if (line.startsWith('message=')) result.message = line.slice('message='.length);
    else if (line.startsWith('diff=')) diff.push(line.slice('diff='.length));
    else if (line !== '') result.log.push(line);
  }
  if (diff.length > 0) result.diff = diff.join('\n');
  return result;
}

export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
