// `govern run PATH`: render, parse, order, apply, notify, report.
import { displayCall } from '../../apply/invoke.js';
import { executeRun } from '../../apply/run.js';
import { governExecutable } from '../../config/paths.js';
import { exitCode } from '../../report/exit-code.js';
import { logLines, notificationLine, resourceLine, summaryLine } from '../../report/text.js';
import { out, type Command } from '../command.js';
import { durationOption, factsOptions, helpOption, runnersOptions, templatesOptions } from '../common-options.js';
import { optionValue, positiveInteger } from '../options.js';
import { UserError } from '../../shared/errors.js';
import type { RunnerMode } from '../../apply/invoke.js';
import { cacheOptions, planFromArgs } from '../planning.js';
import { remoteFactOptions } from '../remote-options.js';

export const DEFAULT_RUNNER_TIMEOUT_MS = 3_600_000;

export const runCommand: Command = {
  name: 'run',
  usage: 'govern run [--noop] [--json] PATH',
  summary: 'apply a state file, or every *.hcl under a directory',
  details:
    'Exit status: 0 success, 1 a failure (or an error before anything was applied).\n' +
    'With --detailed-exitcodes: 0 no changes, 2 changes, 4 failures, 6 changes and failures\n' +
    '(errors before anything was applied still exit 1).',
  options: [
    { name: 'noop', short: 'n', help: 'report what would change, change nothing' },
    { name: 'json', help: 'print the run report as JSON on stdout (see docs/report.md)' },
    { name: 'verbose', short: 'v', help: 'show each runner invocation and its log' },
    { name: 'detailed-exitcodes', help: 'exit 0/2/4/6 as described above' },
    { name: 'jobs', short: 'j', value: true, placeholder: 'N', help: 'apply up to N independent resources at once (default 1, or GOVERN_JOBS)' },
    { name: 'runner-mode', value: true, placeholder: 'MODE', help: 'persistent (default: runners that support it start once per run) or oneshot (GOVERN_RUNNER_MODE)' },
    { name: 'runner-timeout', value: true, placeholder: 'DURATION', help: 'kill a runner after this long (default 1h)' },
    ...runnersOptions,
    ...factsOptions,
    ...templatesOptions,
    ...remoteFactOptions,
    ...cacheOptions,
    helpOption,
  ],
  async run(args) {
    const json = args.flags.has('json');
    const verbose = args.flags.has('verbose') && !json;
    const noop = args.flags.has('noop');
    const { plan, paths, runners } = await planFromArgs(args, this.usage);
    const print = (text: string) => {
      if (!json) process.stdout.write(text);
    };
    const report = await executeRun(plan, {
      governPath: governExecutable(),
      factsPath: paths.facts,
      noop,
      timeoutMs: durationOption(args, 'runner-timeout', DEFAULT_RUNNER_TIMEOUT_MS),
      baseEnv: process.env,
      jobs: positiveInteger(args, 'jobs', process.env.GOVERN_JOBS ?? '1'),
      runnerMode: runnerMode(optionValue(args, 'runner-mode') ?? process.env.GOVERN_RUNNER_MODE ?? 'persistent'),
      runners,
      onStart: (call) => {
        if (verbose) print(`running   ${displayCall(call, noop)}\n`);
      },
      onResource: (r) => {
        print(resourceLine(r, noop));
        if (verbose || r.status === 'failed') print(logLines(r.log));
      },
      onNotification: (n) => {
        print(notificationLine(n));
        if (verbose || n.status === 'failed') print(logLines(n.log));
      },
    });
    if (json) await out(JSON.stringify(report, null, 2) + '\n');
    else print(summaryLine(report.summary, noop));
    return exitCode(report.summary, args.flags.has('detailed-exitcodes'));
  },
};

function runnerMode(text: string): RunnerMode {
  if (text === 'persistent' || text === 'oneshot') return text;
  throw new UserError(`--runner-mode must be persistent or oneshot, not "${text}"`);
}
