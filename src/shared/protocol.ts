// The runner protocol shared by the core and the runners (DESIGN.md, "Runner protocol"):
// how attributes become `key=value` arguments, how a runner reads them back, and the result lines.

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

/** Attributes to argv: a list becomes one argument per element, in order; null is left out. */
export function encodeArgs(attrs: Attributes): string[] {
  const argv: string[] = [];
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) argv.push(`${key}=${encodeScalar(v)}`);
  }
  return argv;
}

/** The arguments a runner received, keyed by name; a key may repeat (a list). */
export class Params {
  private readonly values = new Map<string, string[]>();

  constructor(pairs: Iterable<[string, string]> = []) {
    for (const [key, value] of pairs) {
      const list = this.values.get(key);
      if (list) list.push(value);
      else this.values.set(key, [value]);
    }
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
    if (list.length > 1) throw new ProtocolError(`${key} is given ${list.length} times; it takes one value`);
    return list[0];
  }

  /** Every value of a list key, in order (a list of one arrives as a single `key=value`). */
  list(key: string): string[] {
    return [...(this.values.get(key) ?? [])];
  }

  bool(key: string, fallback: boolean): boolean {
    const value = this.get(key);
    if (value === undefined) return fallback;
    return parseBool(key, value);
  }
}

export class ProtocolError extends Error {}

export function parseBool(key: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ProtocolError(`${key} must be true or false, not "${value}"`);
}

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `RUNNER NAME key=value...`: the name first, then the arguments. */
export function decodeArgs(argv: string[]): { name: string; params: Params } {
  if (argv.length === 0) throw new ProtocolError('usage: RUNNER NAME [key=value...]');
  const [name, ...rest] = argv;
  const pairs: [string, string][] = rest.map((arg) => {
    const eq = arg.indexOf('=');
    const key = eq < 0 ? '' : arg.slice(0, eq);
    if (!KEY.test(key)) throw new ProtocolError(`argument "${arg}" is not key=value`);
    return [key, arg.slice(eq + 1)];
  });
  return { name, params: new Params(pairs) };
}

export interface RunnerResult {
  changed: boolean;
  message?: string;
}

/** The result lines a runner prints on stdout. */
export function formatResult(result: RunnerResult): string {
  let out = `changed=${result.changed ? 'true' : 'false'}\n`;
  if (result.message !== undefined) out += `message=${oneLine(result.message)}\n`;
  return out;
}

/** Reads a runner's stdout: result lines out, everything else is log. */
export function parseResult(stdout: string): RunnerResult & { log: string[] } {
  const result: RunnerResult & { log: string[] } = { changed: false, log: [] };
  for (const line of stdout.split('\n')) {
    if (line === 'changed=true') result.changed = true;
    else if (line === 'changed=false') result.changed = false;
    else if (line.startsWith('message=')) result.message = line.slice('message='.length);
    else if (line !== '') result.log.push(line);
  }
  return result;
}

export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
