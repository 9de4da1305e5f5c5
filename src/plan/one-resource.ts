// Planning for `govern resource RUNNER NAME KEY=VALUE...`: one resource made from the command line
// (and --values-from), its runner described and checked as a tree's would be, and a warning for each
// secret that was given where every local user can read it (docs/runners.md, "govern resource").
import type { KnownRunner } from '../describe/describe-runner.js';
import { buildGraph } from '../describe/build-graph.js';
import { warn } from '../output/writers.js';
import type { PhaseClock } from '../report/timing.js';
import { listWords } from '../shared/arguments.js';
import { UserError, type Location, type Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { ATTRIBUTE_KEY, checkResourceName, RUNNER_NAME } from '../shared/validate.js';
import { NOOP_KEY, ORDERING_KEYS, rref, SENSITIVE_KEY, TAGS_KEY, TEMPLATE_KEY, VARS_KEY, type Resource } from '../state/resource.js';
import type { PlannedTree } from './plan-tree.js';
import type { PlanSettings } from './settings.js';

const COMMAND_LINE = { file: 'command line' };

/** A KEY=VALUE argument, and where it was given. */
export interface GivenArgument {
  text: string;
  /** Where it was given: the file (or `stdin`) and line. */
  at: Location;
}

/** The planning of a run of one resource: no tree, no data, no selection. */
export function planOneResource(resource: Resource, onCommandLine: ReadonlySet<string>): (settings: PlanSettings, clock: PhaseClock) => Promise<PlannedTree> {
  return async (settings, clock) => {
    const planned = await clock.time('plan', () => buildGraph([resource], { runnerDirs: settings.paths.runners, cache: settings.cache }));
    for (const message of secretsOnCommandLine(resource, onCommandLine, planned.runners)) warn(message);
    return { ...planned, health: [] };
  };
}

/** RUNNER NAME key=value... as a resource, with the arguments of --values-from after those; every problem at once. */
export function commandLineResource(operands: string[], usage: string, fromFile: GivenArgument[] = []): Resource {
  if (operands.length < 2) throw new UserError(`give a runner and a resource name: ${usage}`);
  const [type, name, ...pairs] = operands;
  const problems: Problem[] = [];
  const problemAt = (at: Location, message: string) => problems.push({ ...at, message });
  if (!RUNNER_NAME.test(type)) problemAt(COMMAND_LINE, `runner name ${JSON.stringify(type)}: letters, digits, _ and -, starting with a letter`);
  const badName = checkResourceName(name);
  if (badName !== undefined) problemAt(COMMAND_LINE, badName);
  const values = new Map<string, string[]>();
  let sensitive = false;
  for (const { text: pair, at } of [...pairs.map((text) => ({ text, at: COMMAND_LINE })), ...fromFile]) {
    const problem = (message: string) => problemAt(at, message);
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    // A line of --values-from is not quoted: it is there because it may hold a secret.
    if (eq < 0) problem(at === COMMAND_LINE ? `${JSON.stringify(pair)} is not key=value` : 'the line is not key=value (not shown: it may hold a secret)');
    else if (!ATTRIBUTE_KEY.test(key)) problem(`key ${JSON.stringify(key)}: letters, digits, _ and -, starting with a letter or _`);
    else if (key === SENSITIVE_KEY) sensitive = pair.slice(eq + 1) === 'true';
    else if (key === NOOP_KEY) problem('noop=...: give --noop for a resource applied alone');
    else if ((ORDERING_KEYS as readonly string[]).includes(key) || key === TAGS_KEY) problem(`${key}=...: a resource applied alone has no ordering or tags`);
    else if (key === TEMPLATE_KEY || key === VARS_KEY) problem(`${key}=...: templates are rendered only in a state tree; give contents=...`);
    else values.set(key, [...(values.get(key) ?? []), pair.slice(eq + 1)]);
  }
  if (problems.length > 0) throw new UserError(problems);
  const attrs: Record<string, AttrValue> = {};
  for (const [key, list] of values) attrs[key] = list.length === 1 ? list[0] : list;
  return {
    ref: rref(type, name),
    type,
    name,
    attrs,
    links: { before: [], after: [], notify: [], subscribe: [] },
    ...(sensitive ? { sensitive } : {}),
    tags: [],
    at: COMMAND_LINE,
    file: COMMAND_LINE.file,
    index: 0,
    stateDir: process.cwd(),
  };
}

/**
 * Values that should not have been on govern's command line, where every local user can read them:
 * those of keys the runner marks sensitive, and all of a resource given sensitive=true.
 */
export function secretsOnCommandLine(resource: Resource, onCommandLine: ReadonlySet<string>, runners: ReadonlyMap<string, KnownRunner>): string[] {
  const where = "given on govern's command line, which every local user can read while it runs (ps, /proc/PID/cmdline): give it with --values-from FILE, or --values-from - on stdin";
  const given = Object.keys(resource.attrs).filter((key) => onCommandLine.has(key));
  if (resource.sensitive && given.length > 0) {
    return [`warning: sensitive=true hides the values in govern's output, but ${listWords(given)} ${given.length > 1 ? 'were' : 'was'} ${where}`];
  }
  const keys = runners.get(resource.type)?.description?.keys ?? {};
  return given.filter((key) => keys[key]?.sensitive === true).map((key) => `warning: ${key} is secret (runner ${resource.type} marks it sensitive), and it was ${where}`);
}
