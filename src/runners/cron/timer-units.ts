// The cron runner's systemd form: the job as a NAME.service (Type=oneshot, the command run by the
// user's shell, as cron runs it) started by a NAME.timer (OnCalendar= from the schedule). Pure.
import { UserError } from '../../shared/errors.js';
import { onCalendar, specialCalendar } from './calendar.js';
import { cronHeader, type CronJob } from './decide.js';

export interface TimerUnits {
  service: string;
  timer: string;
}

/**
 * A value inside double quotes on a unit file line: systemd reads C escapes there, expands `%`
 * specifiers everywhere and `$VARIABLES` on Exec lines (systemd.service(5), "Command lines").
 */
function quoted(value: string, exec: boolean): string {
  const escaped = value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/%/g, '%%');
  return `"${exec ? escaped.replace(/\$/g, '$$$$') : escaped}"`;
}

/**
 * cron's `%` ends the command and starts its standard input, and `\%` is a literal `%`; a timer's
 * service has no such input, so an unescaped `%` is refused rather than dropped.
 */
function commandOf(job: CronJob): string {
  const command = job.command!;
  if (/(^|[^\\])%/.test(command)) {
    throw new UserError(`command: a % that is not written \\% is cron's standard input, which a timer's service has none of: write \\% for a literal one`);
  }
  return command.replace(/\\%/g, '%');
}

/**
 * The shell, by its absolute path: ExecStart= reads a leading -, @, :, + or ! of its first word as a
 * prefix even inside quotes (`+/bin/sh` would run the command as root whatever User= says).
 */
function shellOf(job: CronJob): string {
  const shell = job.environment.find((e) => e.startsWith('SHELL='))?.slice('SHELL='.length) || '/bin/sh';
  if (!shell.startsWith('/')) throw new UserError(`environment: SHELL=${shell} is not an absolute path, which a timer's service needs (ExecStart= would read a leading -, @, :, + or ! as a prefix changing how the command runs)`);
  return shell;
}

export function timerUnits(job: CronJob): TimerUnits {
  const header = cronHeader(job.name);
  const shell = shellOf(job);
  const calendar = job.special !== undefined ? [specialCalendar(job.special)] : onCalendar(job.fields);
  const service = [
    header,
    '[Unit]',
    `Description=cron job ${job.name}`,
    '',
    '[Service]',
    'Type=oneshot',
    // cron runs a job as its user (root by default), in the user's home directory.
    ...(job.scope === 'system' ? [`User=${job.user}`] : []),
    'WorkingDirectory=~',
    ...job.environment.map((e) => `Environment=${quoted(e, false)}`),
    `ExecStart=${/^[A-Za-z0-9_./-]+$/.test(shell) ? shell : quoted(shell, true)} -c ${quoted(commandOf(job), true)}`,
    '',
  ].join('\n');
  const timer = [
    header,
    '[Unit]',
    `Description=cron schedule of ${job.name}`,
    '',
    '[Timer]',
    ...calendar.map((c) => `OnCalendar=${c}`),
    `Unit=${job.name}.service`,
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
  return { service, timer };
}
