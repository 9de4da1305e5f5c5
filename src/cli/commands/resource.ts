// `govern resource RUNNER NAME [key=value...]`: one resource applied ad hoc (Puppet's `puppet
// resource`, Ansible's `ansible -m`). The resource is made from the command line instead of a state
// file, then checked, applied and reported by the run's own path (run.ts); docs/runners.md says why
// it takes the run lock and is not recorded.
import { UserError, type Problem } from '../../shared/errors.js';
import type { AttrValue } from '../../shared/protocol.js';
import { ATTRIBUTE_KEY, checkResourceName, RUNNER_NAME } from '../../shared/validate.js';
import { planResources } from '../../describe/plan-resources.js';
import { NOOP_KEY, ORDERING_KEYS, rref, SENSITIVE_KEY, TAGS_KEY, TEMPLATE_KEY, VARS_KEY, type Resource } from '../../state/resource.js';
import { described } from '../command-index.js';
import { defineCommand } from '../command.js';
import { factsOptions, helpOptions, identityOptions, runnersOptions, searchPaths, templatesOptions } from '../common-options.js';
import { inventoryOptions } from '../inventory-options.js';
import { optionTable, type CommandLine } from '../options.js';
import { cacheOptions, type PlanningInputs, type Planned } from '../planning.js';
import { remoteFactOptions } from '../remote-options.js';
import { LocalFacts } from '../../facts/local-facts.js';
import { errorReport } from '../../report/build.js';
import { reportJson } from '../../report/json.js';
import { runMeta } from '../../report/meta.js';
import { PhaseClock, sinceStart } from '../../report/timing.js';
import { applyOptions, lockedRun, underRunLock, type ResolvedRunOptions } from './run.js';

export const resourceOptions = optionTable([
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
    'The runner is found in the runners directories (--runners-dir, GOVERN_RUNNERS_DIR, the shipped ones).\n' +
    'Not recorded: last-run.json, the metrics and govern status keep describing the last run of the tree.\n' +
    'Exit status: 0 success, 1 a failure (or an error before anything was applied).\n' +
    'With --detailed-exitcodes: 0 no changes, 2 changes, 4 failures, 6 changes and failures.',
  options: resourceOptions,
  async run(o, operands) {
    const resource = commandLineResource(operands, this.usage);
    const plan = async (inputs: PlanningInputs, clock: PhaseClock): Promise<Planned> =>
      clock.time('plan', () => planResources([resource], { runnerDirs: inputs.paths.runners, cache: inputs.cache }));
    // What only a tree's run reads (selection, the record) is empty here.
    const options: ResolvedRunOptions = { ...o, tags: [], skipTags: [], forget: [], metricsFile: undefined, varDir: '' };
    return underRunLock(o, () => lockedRun(options, { target: '', state: resource.ref, plan, adHoc: true }));
  },
  // Options that cannot be read: with --json, still a JSON document, as govern run gives.
  async errorDocument(e: unknown, line: CommandLine) {
    if (!line.given.has('json')) return undefined;
    const state = line.operands.slice(0, 2).join(':');
    return reportJson(errorReport(await runMeta(state, line.given.has('noop'), new LocalFacts({ dirs: searchPaths({}, undefined).facts })), e, new PhaseClock().timings(), sinceStart()));
  },
});

/** RUNNER NAME key=value... as a resource; every problem of the command line at once. */
export function commandLineResource(operands: string[], usage: string): Resource {
  if (operands.length < 2) throw new UserError(`give a runner and a resource name: ${usage}`);
  const [type, name, ...pairs] = operands;
  const problems: Problem[] = [];
  const problem = (message: string) => problems.push({ ...COMMAND_LINE, message });
  if (!RUNNER_NAME.test(type)) problem(`runner name ${JSON.stringify(type)}: letters, digits, _ and -, starting with a letter`);
  const badName = checkResourceName(name);
  if (badName !== undefined) problem(badName);
  const values = new Map<string, string[]>();
  let sensitive = false;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (eq < 0) problem(`${JSON.stringify(pair)} is not key=value`);
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
