// `govern resource RUNNER NAME [key=value...]`: one resource applied ad hoc (Puppet's `puppet
// resource`, Ansible's `ansible -m`). The resource is made from the command line instead of a state
// file, then checked, applied and reported by the run's own path (run.ts); docs/runners.md says why
// it takes the run lock and is not recorded.
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { factsOptions, helpOptions, identityOptions, runnersOptions, templatesOptions } from '../common-options.js';
import { inventoryOptions } from '../inventory-options.js';
import { optionTable, type CommandLine } from '../options.js';
import { cacheOptions } from '../planning-options.js';
import { remoteFactOptions } from '../remote-options.js';
import { commandLineResource, planOneResource } from '../../plan/one-resource.js';
import { readValuesFile } from '../../plan/values-file.js';
import { errorDocument } from '../../run/error-document.js';
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
    const plan = planOneResource(resource, new Set(operands.slice(2).map((pair) => pair.split('=')[0])));
    // What only a tree's run reads (selection, the record) is empty here.
    const options: ResolvedRunOptions = { ...o, tags: [], skipTags: [], forget: [], metricsFile: undefined, varDir: '', noHealth: true };
    return underRunLock(o, () => lockedRun(runSettings(options), { target: '', state: resource.ref, plan, adHoc: true }));
  },
  // Options that cannot be read: with --json, still a JSON document, as govern run gives.
  async errorDocument(e: unknown, line: CommandLine) {
    if (!line.given.has('json')) return undefined;
    const state = line.operands.slice(0, 2).join(':');
    return errorDocument(state, undefined, line.given.has('noop'), e);
  },
});
