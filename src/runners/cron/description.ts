// What the cron runner accepts, declared once: govern checks state files against it (the time
// fields too: src/runners/cron/fields.ts), and the runner reads its arguments with it (docs/cron.md).
import type { RunnerDescription } from '../../shared/description.js';
import { ACCOUNT_CHARS } from '../lib/accounts/names.js';
import { FIELDS } from './fields.js';

const ONE_LINE = '[^\\n\\r]*\\S[^\\n\\r]*';
const time = (key: keyof typeof FIELDS) => ({ type: 'string', ...FIELDS[key], default: '*' }) as const;

export const description = {
  help: 'a cron job: one file in /etc/cron.d, or a systemd timer and its service',
  name: {
    type: 'string',
    // cron reads only the files of /etc/cron.d whose names are made of these (run-parts' rule):
    // a name with a dot (`backup.cron`, a package's `.dpkg-old`) would be ignored.
    pattern: '[A-Za-z0-9_-]+',
    what: 'a file name cron reads (letters, digits, _ and -; no dot)',
    help: 'the job, and its file /etc/cron.d/NAME (provider = "systemd": NAME.timer and NAME.service)',
  },
  keys: {
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present, or absent (the file is removed)' },
    command: { type: 'string', pattern: ONE_LINE, what: 'one line of text, not empty', help: 'the command, run by the user\'s shell (/bin/sh unless environment sets SHELL); a % is cron\'s newline: write \\% for a literal one' },
    user: { type: 'string', chars: ACCOUNT_CHARS, what: 'a user name', default: 'root', help: 'the user the command runs as' },
    minute: time('minute'),
    hour: time('hour'),
    monthday: time('monthday'),
    month: time('month'),
    weekday: time('weekday'),
    special: {
      type: 'enum',
      values: ['reboot', 'yearly', 'annually', 'monthly', 'weekly', 'daily', 'midnight', 'hourly'],
      help: 'one of cron\'s @ schedules instead of the five fields (@daily, @reboot)',
    },
    environment: {
      type: 'list',
      items: { type: 'string', pattern: '[A-Za-z_][A-Za-z0-9_]*=[^\\n\\r]*', what: 'NAME=value on one line' },
      help: 'variables set for the job, each NAME=value (MAILTO=ops@example.org, PATH=/usr/bin:/bin)',
    },
    provider: { type: 'enum', values: ['cron', 'systemd'], default: 'cron', help: 'cron: a file in /etc/cron.d; systemd: a NAME.timer starting a NAME.service, enabled and started' },
    scope: {
      type: 'enum',
      values: ['system', 'user'],
      default: 'system',
      help: 'provider = "systemd": the system manager (/etc/systemd/system), or the calling user\'s (~/.config/systemd/user; no user then)',
    },
  },
  rules: [
    { when: { ensure: ['present'] }, require: ['command'] },
    { only_when: { provider: ['systemd'] }, keys: ['scope'] },
    { only_when: { ensure: ['present'] }, keys: ['command', 'user', 'minute', 'hour', 'monthday', 'month', 'weekday', 'special', 'environment'] },
  ],
  signals: ['refresh'],
  autorequire: [{ runner: 'user', key: 'user' }],
  writes: [
    { path: '/etc/cron.d/{name}', when: { provider: ['cron'] } },
    ...['{name}.service', '{name}.timer', 'timers.target.wants/{name}.timer'].flatMap((file) => [
      { path: `/etc/systemd/system/${file}`, when: { provider: ['systemd'], scope: ['system'] } },
      // The user's unit directory, as the runner finds it: $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user.
      { path: `{$XDG_CONFIG_HOME}/systemd/user/${file}`, when: { provider: ['systemd'], scope: ['user'] } },
      { path: `~/.config/systemd/user/${file}`, when: { provider: ['systemd'], scope: ['user'] } },
    ]),
  ],
} as const satisfies RunnerDescription;
