// The options of a run (`govern run`, and `govern resource` takes them too), and the one place they
// become the plain settings a run reads (src/run/run.ts).
import { fleetSettings } from './fleet-options.js';
import { helpOptions, varDirOptions } from './common-options.js';
import { optionTable, type Options } from './options.js';
import { planningOptions, planSettings } from './planning-options.js';
import type { RunSettings } from '../run/run.js';

export const applyOptions = optionTable([
  { name: 'noop', short: 'n', kind: 'flag', help: 'report what would change, with diffs, and change nothing', otherNames: ['check', 'dry-run', 'what-if'] },
  { name: 'json', kind: 'flag', help: 'print the run report as JSON on stdout, even when the run fails before applying (docs/report.md)' },
  {
    name: 'verbose',
    short: 'v',
    kind: 'counter',
    help: 'list unchanged resources too, with runner logs; -vv also each runner invocation',
    otherNames: ['debug'],
  },
  { name: 'quiet', short: 'q', kind: 'flag', help: 'print only failures and the summary' },
  { name: 'no-diff', kind: 'flag', help: 'do not show diffs under changed resources' },
  {
    name: 'color',
    kind: 'choice',
    placeholder: 'WHEN',
    choices: ['auto', 'always', 'never'],
    env: 'GOVERN_COLOR',
    default: 'auto',
    help: 'colour the text output; auto: on a terminal, unless NO_COLOR is set',
  },
  { name: 'detailed-exitcodes', kind: 'flag', help: 'exit 0 no changes, 2 changes, 4 failures, 6 changes and failures' },
  { name: 'jobs', short: 'j', kind: 'number', placeholder: 'N', env: 'GOVERN_JOBS', default: '1', help: 'apply up to N independent resources at once', otherNames: ['forks'] },
  {
    name: 'runner-mode',
    kind: 'choice',
    placeholder: 'MODE',
    choices: ['persistent', 'oneshot'],
    env: 'GOVERN_RUNNER_MODE',
    default: 'persistent',
    help: 'persistent: a runner that supports it starts once per run; oneshot: a process per resource',
  },
  { name: 'runner-timeout', kind: 'duration', placeholder: 'DURATION', env: 'GOVERN_RUNNER_TIMEOUT', default: '1h', help: 'kill a runner after this long' },
  {
    name: 'lock-timeout',
    kind: 'duration',
    placeholder: 'DURATION',
    env: 'GOVERN_LOCK_TIMEOUT',
    default: '10m',
    allowZero: true,
    help: 'wait this long for a run under way to end (one run at a time); 0: fail at once',
  },
]);

export const runOptions = optionTable([
  ...applyOptions,
  ...varDirOptions,
  {
    name: 'forget',
    kind: 'texts',
    placeholder: 'RREF',
    help: 'stop reporting RREF as no longer managed (a resource removed from the tree and left on the host); repeatable',
  },
  {
    name: 'metrics-file',
    kind: 'text',
    placeholder: 'FILE',
    env: 'GOVERN_METRICS_FILE',
    help: "after each run that is not --noop, write its metrics to FILE for node_exporter's textfile collector",
  },
  { name: 'no-health', kind: 'flag', help: "do not run the tree's health checks after the run (docs/rollout.md)" },
  ...planningOptions,
  ...helpOptions,
]);

export type ResolvedRunOptions = Options<typeof runOptions>;

/** The settings of a run, from its options: resolved here, once. */
export function runSettings(o: ResolvedRunOptions): RunSettings {
  return {
    planSettings: (target) => planSettings(target, o),
    noop: o.noop,
    json: o.json,
    quiet: o.quiet,
    verbose: o.verbose,
    noDiff: o.noDiff,
    color: o.color,
    detailedExitcodes: o.detailedExitcodes,
    jobs: o.jobs,
    runnerMode: o.runnerMode,
    runnerTimeout: o.runnerTimeout,
    lockTimeout: o.lockTimeout,
    forget: o.forget,
    varDir: o.varDir,
    metricsFile: o.metricsFile,
    noHealth: o.noHealth,
    fleet: fleetSettings(o),
    fleetName: o.fleetName,
  };
}
