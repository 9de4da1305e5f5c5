// `govern run PATH`: plan, apply, notify, report (as text while it runs, or as JSON at the end).
import { executeRun } from '../../apply/run.js';
import { governExecutable, treeRoot } from '../../config/paths.js';
import { LocalFacts } from '../../facts/local-facts.js';
import { errorReport, runReport } from '../../report/build.js';
import { exitCode } from '../../report/exit-code.js';
import { reportJson } from '../../report/json.js';
import { runMeta } from '../../report/meta.js';
import { summaryLine, type TextView } from '../../report/text.js';
import { PhaseClock, sinceStart } from '../../report/timing.js';
import { UserError } from '../../shared/errors.js';
import { defineCommand, out, printError, theOperand } from '../command.js';
import { helpOptions, searchPaths } from '../common-options.js';
import { optionTable, type CommandLine, type Options } from '../options.js';
import { planningInputs, planningOptions, planTree, type PlanningInputs } from '../planning.js';
import { textPrinter, useColour } from '../text-output.js';

export const runOptions = optionTable([
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
  ...planningOptions,
  ...helpOptions,
]);

export const runCommand = defineCommand({
  name: 'run',
  usage: 'govern run [OPTIONS] PATH',
  summary: 'apply a state file, or every *.hcl under a directory',
  details:
    'Prints a line for each resource that changed (or would, with --noop), failed or was skipped, with its\n' +
    'diff, a line for each notification, and a summary of the whole run.\n' +
    'Exit status: 0 success, 1 a failure (or an error before anything was applied).\n' +
    'With --detailed-exitcodes: 0 no changes, 2 changes, 4 failures, 6 changes and failures\n' +
    '(errors before anything was applied still exit 1).',
  otherNames: ['apply'],
  options: runOptions,
  async run(o, operands) {
    const target = theOperand(operands, this.usage, 'PATH');
    if (o.quiet && o.verbose > 0) throw new UserError('-q and -v say opposite things: give one');
    const clock = new PhaseClock();
    const inputs = planningInputs(target, o);
    try {
      return await runTree(o, inputs, clock);
    } catch (e) {
      if (!o.json) throw e;
      await out(reportJson(errorReport(await runMeta(target, o.noop, inputs.facts), e, clock.timings(), sinceStart())));
      printError(e);
      return 1;
    }
  },
  // Options that cannot be read: with --json, still a JSON document.
  async errorDocument(e: unknown, line: CommandLine) {
    if (!line.given.has('json')) return undefined;
    const target = line.operands[0] ?? '';
    const facts = new LocalFacts({ dirs: searchPaths({}, treeRoot(target)).facts });
    return reportJson(errorReport(await runMeta(target, line.given.has('noop'), facts), e, new PhaseClock().timings(), sinceStart()));
  },
});

async function runTree(o: Options<typeof runOptions>, inputs: PlanningInputs, clock: PhaseClock): Promise<number> {
  const { plan, runners, selected } = await planTree(inputs, clock);
  const view: TextView = {
    verbosity: o.quiet ? -1 : Math.min(o.verbose, 2),
    diffs: !o.noDiff,
    color: useColour(o.color, process.env, process.stdout),
    noop: o.noop,
  };
  const listener = o.json ? {} : textPrinter(plan, view, (text) => process.stdout.write(text));
  const entries = await executeRun(plan, {
    governPath: governExecutable(),
    factsPath: inputs.paths.facts,
    noop: o.noop,
    timeoutMs: o.runnerTimeout,
    baseEnv: process.env,
    jobs: o.jobs,
    runnerMode: o.runnerMode,
    runners,
    selected,
    clock,
    ...listener,
  });
  const excluded = selected ? plan.resources.length - selected.size : 0;
  // The host's name is a fact: evaluated after the runners are done, never alongside them.
  const report = runReport(await runMeta(inputs.target, o.noop, inputs.facts), { ...entries, excluded }, clock.timings(), sinceStart());
  await out(o.json ? reportJson(report) : `${summaryLine(report)}\n`);
  return exitCode(report.summary, o.detailedExitcodes);
}
