// `govern resource RUNNER NAME [key=value...]`: one resource applied ad hoc (Puppet's `puppet
// resource`, Ansible's `ansible -m`). The resource is made from the command line instead of a state
// file, then checked, applied and reported by the run's own path (run.ts); docs/runners.md says why
// it takes the run lock and is not recorded.
import { listWords } from '../../shared/arguments.js';
import { UserError, type Location, type Problem } from '../../shared/errors.js';
import type { AttrValue } from '../../shared/protocol.js';
import { ATTRIBUTE_KEY, checkResourceName, RUNNER_NAME } from '../../shared/validate.js';
import { buildGraph } from '../../describe/build-graph.js';
import { NOOP_KEY, ORDERING_KEYS, rref, SENSITIVE_KEY, TAGS_KEY, TEMPLATE_KEY, VARS_KEY, type Resource } from '../../state/resource.js';
import type { KnownRunner } from '../../describe/describe-runner.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { warn } from '../../output/writers.js';
import { factsOptions, helpOptions, identityOptions, runnersOptions, searchPaths, templatesOptions } from '../common-options.js';
import { inventoryOptions } from '../inventory-options.js';
import { optionTable, type CommandLine } from '../options.js';
import type { PlannedTree } from '../../plan/plan-tree.js';
import type { PlanSettings } from '../../plan/settings.js';
import { cacheOptions } from '../planning-options.js';
import { remoteFactOptions } from '../remote-options.js';
import { LocalFacts } from '../../facts/local-facts.js';
import { errorReport } from '../../report/build.js';
import { reportJson } from '../../report/json.js';
import { runMeta } from '../../report/meta.js';
import { PhaseClock, sinceStart } from '../../report/timing.js';
import { readValuesFile, type GivenArgument } from '../values-file.js';
import { lockedRun, underRunLock } from '../../run/run.js';
import { applyOptions, runSettings, type ResolvedRunOptions } from '../run-options.js';

export const resourceOptions = optionTable([
  {
    name: 'values-from',
    kind: 'text',
    placeholder: 'FILE',
    help: 'more KEY=VALUE arguments, one a line, from FILE (- for stdin): values kept off govern\'s command line, which every local user can read',
  },
  ...applyOptions,
  ...runnersOptions,
  ...factsOptions,
  ...templatesOptions,
  ...identityOptions,
  ...remoteFactOptions,
  ...inventoryOptions,
  ...cacheOptions,
  ...helpOptions,
]);

/** Where problems about the command line's resource are said to be. */
const COMMAND_LINE = { file: 'command line' };

export const resourceCommand = defineCommand({
  ...described('resource'),
  details:
    'Applies one resource as a run would: checked against its runner\'s description first (unknown keys,\n' +
    'allowed values, with did-you-mean), then applied under the run lock, with the same output and exit\n' +
    'status as govern run. Each value is a string; a key given more than once is a list\n' +
    '(`groups=adm groups=sudo`), as the runner protocol passes it. `sensitive=true` hides the values.\n' +
    'Every local user can read govern\'s command line while it runs (ps, /proc/PID/cmdline): give a secret\n' +
    'with --values-from FILE, or --values-from - on stdin (`printf \'password=%s\\n\' "$hash" | govern resource\n' +
    'user app --values-from -`); govern warns of a value given on the command line for a key its runner\n' +
    'marks sensitive, or with sensitive=true.\n' +
    'The runner is found in the runners directories (--runners-dir, GOVERN_RUNNERS_DIR, the shipped ones).\n' +
    'Not recorded: last-run.json, the metrics and govern status keep describing the last run of the tree.\n' +
    'Exit status: 0 success, 1 a failure (or an error before anything was applied).\n' +
    'With --detailed-exitcodes: 0 no changes, 2 changes, 4 failures, 6 changes and failures.',
  options: resourceOptions,
  async run(o, operands) {
    const fromFile = o.valuesFrom !== undefined ? await readValuesFile(o.valuesFrom) : [];
    const resource = commandLineResource(operands, this.usage, fromFile);
    const onCommandLine = new Set(operands.slice(2).map((pair) => pair.split('=')[0]));
    const plan = async (inputs: PlanSettings, clock: PhaseClock): Promise<PlannedTree> => {
      const planned = await clock.time('plan', () => buildGraph([resource], { runnerDirs: inputs.paths.runners, cache: inputs.cache }));
      for (const message of secretsOnCommandLine(resource, onCommandLine, planned.runners)) warn(message);
      return planned;
    };
    // What only a tree's run reads (selection, the record) is empty here.
    const options: ResolvedRunOptions = { ...o, tags: [], skipTags: [], forget: [], metricsFile: undefined, varDir: '' };
    return underRunLock(o, () => lockedRun(runSettings(options), { target: '', state: resource.ref, plan, adHoc: true }));
  },
  // Options that cannot be read: with --json, still a JSON document, as govern run gives.
  async errorDocument(e: unknown, line: CommandLine) {
    if (!line.given.has('json')) return undefined;
    const state = line.operands.slice(0, 2).join(':');
    return reportJson(errorReport(await runMeta(state, line.given.has('noop'), new LocalFacts({ dirs: searchPaths({}, undefined).facts })), e, new PhaseClock().timings(), sinceStart()));
  },
});

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
