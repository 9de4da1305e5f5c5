// Turns one parsed state file (hcl2json's output plus the scanned block headers) into resources,
// in source order, collecting every problem with its file and line.
import path from 'node:path';
import type { Location, Problem } from '../shared/errors.js';
import type { AttrValue, Attributes } from '../shared/protocol.js';
import { masker, SENSITIVE } from '../shared/sensitive.js';
import { ATTRIBUTE_KEY, checkResourceName, RUNNER_NAME } from '../shared/validate.js';
import { allNumbersFinite } from './finite.js';
import { ExpressionError, literalValue } from './hcl.js';
import { NOOP_KEY, ORDERING_KEYS, rref, SENSITIVE_KEY, TAG, TAGS_KEY, TEMPLATE_KEY, VARS_KEY, type OrderingKey, type Resource } from './resource.js';
import type { TopLevelItem } from './scan-blocks.js';
import type { SourceLines } from './source-lines.js';

export interface FileResources {
  resources: Resource[];
  problems: Problem[];
}

const ORDERING_HINT: Record<OrderingKey, string> = {
  before: 'a list of RREFs such as ["service:nginx"]',
  after: 'a list of RREFs such as ["pkg:nginx"]',
  notify: 'a list of notification strings such as ["service:nginx:restart"]',
  subscribe: 'a list of RREFs such as ["file:/etc/nginx/nginx.conf"]',
};

export function toResources(
  file: string,
  items: TopLevelItem[],
  parsed: Record<string, unknown>,
  lines: SourceLines,
  firstIndex: number,
): FileResources {
  const problems: Problem[] = [];
  const resources: Resource[] = [];
  const seen = new Map<string, number>(); // (type, name) -> how many bodies taken so far
  const stateDir = path.dirname(path.resolve(file));

  for (const item of items) {
    const at = lines.where(item.line);
    const problem = (message: string) => problems.push({ ...at, message });
    if (item.kind === 'attribute') {
      problem(`"${item.name} = ..." at the top level: a state file holds only resource blocks, runner "name" { ... }`);
      continue;
    }
    if (item.labels.length !== 1) {
      problem(`block "${item.type}" has ${item.labels.length} names; a resource is written runner "name" { ... }`);
      continue;
    }
    const [name] = item.labels;
    if (!RUNNER_NAME.test(item.type)) {
      problem(`"${item.type}" is not a runner name (letters, digits, _ and -, starting with a letter)`);
      continue;
    }
    const nameProblem = checkResourceName(name);
    if (nameProblem) {
      problem(nameProblem);
      continue;
    }
    const key = JSON.stringify([item.type, name]);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const bodies = ((parsed[item.type] as Record<string, unknown> | undefined)?.[name] ?? []) as unknown[];
    const body = bodies[occurrence];
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      problem(`could not read the body of ${item.type} "${name}"`);
      continue;
    }
    const keyAt = Object.fromEntries(item.keys.map((key) => [key.name, lines.where(key.line)]));
    const ordered = inSourceOrder(body as Record<string, unknown>, item.keys.map((key) => key.name));
    const resource = bodyToResource(item.type, name, ordered, at, keyAt, problems);
    if (resource) resources.push({ ...resource, file, stateDir, index: firstIndex + resources.length });
  }
  return { resources, problems };
}

function bodyToResource(
  type: string,
  name: string,
  body: Record<string, unknown>,
  at: Location,
  keyAt: Record<string, Location>,
  problems: Problem[],
): Omit<Resource, 'file' | 'stateDir' | 'index'> | undefined {
  const ref = rref(type, name);
  const attrs: Attributes = {};
  const links = { before: [], after: [], notify: [], subscribe: [] } as Record<OrderingKey, string[]>;
  let tags: string[] = [];
  let sensitive = false;
  let noop = false;
  let templateName: string | undefined;
  let vars: { [key: string]: AttrValue } | undefined;
  let ok = true;
  const mine: Problem[] = [];
  /** For a sensitive resource: messages that quote a value which is not among its attributes. */
  const quietly = new Map<Problem, string>();
  for (const [key, raw] of Object.entries(body)) {
    const problem = (message: string) => mine.push({ ...(keyAt[key] ?? at), message: `${ref}: ${message}` });
    if (!ATTRIBUTE_KEY.test(key)) {
      problem(`"${key}" is not a valid argument name`);
      ok = false;
      continue;
    }
    let value: AttrValue;
    try {
      value = literalValue(raw);
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      problem(`${key}: ${e.message}`);
      quietly.set(mine[mine.length - 1], `${ref}: ${key}: ${SENSITIVE} ${e.quiet}`);
      ok = false;
      continue;
    }
    if (!allNumbersFinite(value)) {
      problem(`${key}: a number is out of range`);
      ok = false;
      continue;
    }
    if (hasNul(value)) {
      problem(`${key}: contains a NUL byte (U+0000), which no command-line argument or environment can carry: refused whatever the runner mode (binary file content can come from the file runner's source)`);
      ok = false;
      continue;
    }
    if ((ORDERING_KEYS as readonly string[]).includes(key)) {
      const list = orderingList(value);
      if (!list) {
        problem(`${key} must be ${ORDERING_HINT[key as OrderingKey]}`);
        ok = false;
      } else links[key as OrderingKey] = list;
    } else if (key === TAGS_KEY) {
      const list = orderingList(value);
      if (!list || !list.every((tag) => TAG.test(tag))) {
        problem('tags must be a list of tags such as ["web", "tls"] (letters, digits, _, then also . : -)');
        ok = false;
      } else tags = list;
    } else if (key === SENSITIVE_KEY) {
      if (typeof value !== 'boolean') {
        problem('sensitive must be true or false');
        ok = false;
      } else sensitive = value;
    } else if (key === NOOP_KEY) {
      if (typeof value !== 'boolean') {
        problem('noop must be true or false');
        ok = false;
      } else noop = value;
    } else if (key === TEMPLATE_KEY) {
      if (typeof value !== 'string' || value === '') {
        problem('template must be the name of a template (nginx/vhost.conf) or a path (./files/app.conf.hbs)');
        ok = false;
      } else templateName = value;
    } else if (key === VARS_KEY) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problem('vars must be a map of the template\'s variables, such as { port = 8080, hosts = ["a", "b"] }');
        ok = false;
      } else vars = value;
    } else {
      attrs[key] = value;
    }
  }
  const problemAt = (key: string, message: string) => mine.push({ ...(keyAt[key] ?? at), message: `${ref}: ${message}` });
  if (vars !== undefined && templateName === undefined) {
    problemAt(VARS_KEY, 'vars are the variables of a template: give template too, or leave vars out');
    ok = false;
  }
  if (templateName !== undefined) {
    for (const other of ['contents', 'source'].filter((k) => k in attrs)) {
      problemAt(other, `give only one of template and ${other}: the template is rendered into the file's contents`);
      ok = false;
    }
  }
  const template = templateName !== undefined ? { name: templateName, vars: vars ?? {} } : undefined;
  // A sensitive resource's values stay out of messages about it too.
  const mask = masker({ attrs, sensitive, template });
  problems.push(...mine.map((p) => ({ ...p, message: sensitive && quietly.has(p) ? quietly.get(p)! : mask(p.message) })));
  if (!ok) return undefined;
  return { ref, type, name, attrs, links, tags, at, keyAt, ...(sensitive ? { sensitive } : {}), ...(noop ? { noop } : {}), ...(template ? { template } : {}) };
}

/**
 * A string reaches a runner as one `key=value` argument (a map as its JSON), and from there often a
 * program's arguments or environment, none of which can carry a NUL byte.
 */
function hasNul(value: AttrValue): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\0') || hasNul(v));
  return false;
}

/** hcl2json sorts a body's keys; runners get them in the order they were written. */
function inSourceOrder(body: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of keys) if (key in body) ordered[key] = body[key];
  for (const key of Object.keys(body)) if (!(key in ordered)) ordered[key] = body[key];
  return ordered;
}

/** A string or a list of non-empty strings (ordering keys, tags). */
function orderingList(value: AttrValue): string[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  return list.every((v) => typeof v === 'string' && v !== '') ? (list as string[]) : undefined;
}
