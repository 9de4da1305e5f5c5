// Turns one parsed state file into resources, in source order, collecting every problem with its
// file and line. A nested block becomes a value as Terraform's JSON syntax writes it: a list of its
// bodies under its type (and under each of its labels).
import path from 'node:path';
import { checkOf, HEALTH_BLOCK, type Check, type CheckProblem } from '../checks/kinds.js';
import { formatLocation, type Location, type Problem } from '../shared/errors.js';
import type { AttrValue, Attributes } from '../shared/protocol.js';
import { masker } from '../shared/sensitive.js';
import { ATTRIBUTE_KEY, checkResourceName, RUNNER_NAME } from '../shared/validate.js';
import { allNumbersFinite } from './finite.js';
import type { HclItem } from '../hcl/syntax.js';
import { misplacedVariable, MODULE_BLOCK, SOURCE_KEY, VARIABLE_BLOCK, type InstanceDecl } from './modules/declarations.js';
import { NOOP_KEY, ORDERING_KEYS, rref, SENSITIVE_KEY, TAG, TAGS_KEY, TEMPLATE_KEY, VARS_KEY, type OrderingKey, type Resource } from './resource.js';
import type { SourceLines } from './source-lines.js';

export interface FileResources {
  resources: Resource[];
  problems: Problem[];
  /** The file's `module` blocks (docs/modules.md). */
  instances: InstanceDecl[];
  /** The file's `health` blocks, checked after every real run (docs/rollout.md). */
  health: Check[];
}

/** Where a state file sits: a module's files may hold `variable` blocks. */
export interface FileContext {
  inModule?: boolean;
  /** The file as written holds `{{`: its variable blocks could not be read before it rendered. */
  templated?: boolean;
}

const ORDERING_HINT: Record<OrderingKey, string> = {
  before: 'a list of RREFs such as ["service:nginx"]',
  after: 'a list of RREFs such as ["pkg:nginx"]',
  notify: 'a list of notification strings such as ["service:nginx:restart"]',
  subscribe: 'a list of RREFs such as ["file:/etc/nginx/nginx.conf"]',
};

export function toResources(
  file: string,
  items: HclItem[],
  lines: SourceLines,
  firstIndex: number,
  context: FileContext = {},
): FileResources {
  const problems: Problem[] = [];
  const resources: Resource[] = [];
  const instances: InstanceDecl[] = [];
  const health: Check[] = [];
  const stateDir = path.dirname(path.resolve(file));

  for (const item of items) {
    const at = lines.where(item.at.line);
    const problem = (message: string) => problems.push({ ...at, message });
    if (item.kind === 'attribute') {
      problem(`"${item.name} = ..." at the top level: a state file holds only resource blocks, runner "name" { ... }`);
      continue;
    }
    if (item.type === HEALTH_BLOCK) {
      const found: CheckProblem[] = [];
      const check = checkOf(item, formatLocation(at), found, 'health');
      if (check) health.push(check);
      for (const p of found) problems.push({ ...lines.where(p.line), message: p.message });
      continue;
    }
    if (item.labels.length !== 1) {
      problem(`block "${item.type}" has ${item.labels.length} names; a resource is written runner "name" { ... }`);
      continue;
    }
    const [name] = item.labels;
    if (item.type === VARIABLE_BLOCK || item.type === MODULE_BLOCK) {
      const body = bodyValues(item.body, lines);
      if (typeof body === 'string') {
        problem(body);
        continue;
      }
      const instance = moduleBlock(item.type, name, body.values, at, body.keyAt, context, problem);
      if (instance) instances.push(instance);
      continue;
    }
    if (!RUNNER_NAME.test(item.type)) {
      problem(`"${item.type}" is not a runner name (letters, digits, _ and -, starting with a letter)`);
      continue;
    }
    const nameProblem = checkResourceName(name);
    if (nameProblem) {
      problem(nameProblem);
      continue;
    }
    const body = bodyValues(item.body, lines);
    if (typeof body === 'string') {
      problem(body);
      continue;
    }
    const { values: ordered, keyAt } = body;
    const resource = bodyToResource(item.type, name, ordered, at, keyAt, problems);
    if (resource) resources.push({ ...resource, file, stateDir, index: firstIndex + resources.length });
  }
  return { resources, problems, instances, health };
}

/**
 * A `module` block is an instance; a `variable` block, in a module's file, was read before the file
 * rendered (modules/variables.ts) and is passed over here.
 */
function moduleBlock(type: string, name: string, body: Record<string, AttrValue>, at: Location, keyAt: Record<string, Location>, context: FileContext, problem: (message: string) => void): InstanceDecl | undefined {
  if (type === VARIABLE_BLOCK) {
    if (!context.inModule) problem(`variable "${name}": a variable declares a parameter of a module, in a file under modules/NAME/ (docs/modules.md)`);
    else if (context.templated) problem(misplacedVariable(name));
    return undefined;
  }
  const params: { [key: string]: AttrValue } = {};
  let source: AttrValue | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key === SOURCE_KEY) source = value;
    else params[key] = value;
  }
  if (typeof source !== 'string' || source === '') {
    problem(`module "${name}": give source = "MODULE", the name of a directory under modules/`);
    return undefined;
  }
  return { name, source, params, at, keyAt };
}

function bodyToResource(
  type: string,
  name: string,
  body: Record<string, AttrValue>,
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
  for (const [key, value] of Object.entries(body)) {
    const problem = (message: string) => mine.push({ ...(keyAt[key] ?? at), message: `${ref}: ${message}` });
    if (!ATTRIBUTE_KEY.test(key)) {
      problem(`"${key}" is not a valid argument name`);
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
  problems.push(...mine.map((p) => ({ ...p, message: mask(p.message) })));
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

/**
 * A block's body as values in the order written, with where each key is written (a nested block's
 * type at its first block); a message when a name is both an attribute and a nested block.
 */
function bodyValues(items: HclItem[], lines: SourceLines): { values: Record<string, AttrValue>; keyAt: Record<string, Location> } | string {
  const values: Record<string, AttrValue> = {};
  const keyAt: Record<string, Location> = {};
  for (const item of items) {
    const name = item.kind === 'attribute' ? item.name : item.type;
    if (!Object.hasOwn(keyAt, name)) setOwn(keyAt, name, lines.where(item.at.line));
    if (item.kind === 'attribute') {
      // The parser refuses an attribute set twice: a name already here is a block's.
      if (Object.hasOwn(values, name)) return `${name} is given both as an attribute and as a block (line ${item.at.line})`;
      setOwn(values, name, item.value);
      continue;
    }
    const nested = bodyValues(item.body, lines);
    if (typeof nested === 'string') return nested;
    // Terraform's JSON syntax: { type: { label: [body, ...] } }, one level per label.
    const holder = Object.hasOwn(values, name) ? values[name] : undefined;
    if (!isRecordOrList(holder, item.labels.length)) return `${name} is given both as an attribute and as a block (line ${item.at.line})`;
    let at: AttrValue = holder ?? (item.labels.length > 0 ? {} : []);
    if (holder === undefined) setOwn(values, name, at);
    for (const [i, label] of item.labels.entries()) {
      const map = at as Record<string, AttrValue>;
      if (!Object.hasOwn(map, label)) setOwn(map, label, i + 1 < item.labels.length ? {} : []);
      at = map[label];
    }
    if (!Array.isArray(at)) return `the blocks ${name} have different numbers of labels (line ${item.at.line})`;
    at.push(nested.values);
  }
  return { values, keyAt };
}

/** record[key] = value, a key named __proto__ included (as an own property). */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** What a nested block of `labels` labels can be added to: nothing yet, or what a block of its type made. */
function isRecordOrList(value: AttrValue | undefined, labels: number): boolean {
  if (value === undefined) return true;
  return labels === 0 ? Array.isArray(value) : value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A string or a list of non-empty strings (ordering keys, tags). */
function orderingList(value: AttrValue): string[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  return list.every((v) => typeof v === 'string' && v !== '') ? (list as string[]) : undefined;
}
