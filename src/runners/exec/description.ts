// What the exec runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/exec.md).
import type { RunnerDescription } from '../../shared/description.js';

/** A command as written: anything but blank. */
const COMMAND = { type: 'string', pattern: '.*\\S.*', what: 'a non-blank command' } as const;

export const description = {
  help: 'a command, run unless it has already done its work',
  keys: {
    command: { ...COMMAND, help: 'the command to run; the resource name when not given' },
    provider: { type: 'enum', values: ['posix', 'shell'], default: 'posix', help: 'posix runs the program without a shell; shell runs /bin/sh -c COMMAND' },
    cwd: { type: 'path', help: 'the absolute directory the command and its checks run in; it must exist when they run' },
    environment: {
      type: 'list',
      items: { type: 'string', pattern: '[A-Za-z_][A-Za-z0-9_]*=.*', what: 'KEY=value (KEY: letters, digits and _, not starting with a digit)' },
      help: 'KEY=value entries added to the environment the command inherits, each KEY once',
    },
    path: {
      type: 'string',
      pattern: '/[^:]*(:/[^:]*)*',
      what: 'absolute directories separated by ":" (no relative or empty entry)',
      help: 'where programs are looked up; it becomes the command\'s PATH (not also in environment)',
    },
    returns: { type: 'list', items: { type: 'integer', min: 0, max: 255 }, default: [0], help: 'the exit codes that mean success' },
    timeout: { type: 'duration', default: '300s', help: 'the longest each command may run (0: no limit); past it, its process group is killed' },
    creates: { type: 'path', help: 'a file whose existence means the command has already done its work: then it is not run' },
    refresh_only: { type: 'boolean', default: false, help: 'run only when notified with refresh' },
    logoutput: { type: 'enum', values: ['true', 'false', 'on_failure'], default: 'on_failure', help: 'when the command\'s output goes to the run log: always, never, or when it fails' },
    user: { type: 'string', chars: 'A-Za-z0-9._@$-', what: 'a user name or a numeric uid', help: 'run the command and its unless/onlyif checks as this user: its uid, primary group, supplementary groups, HOME, USER and LOGNAME (through setpriv)' },
    group: { type: 'string', chars: 'A-Za-z0-9._@$-', what: 'a group name or a numeric gid', help: 'run the command and its checks with this group (instead of the user\'s primary group)' },
    umask: { type: 'mode', max: 0o777, help: 'the umask of the command and its checks (0022, 027)' },
    tries: { type: 'integer', min: 1, max: 1000, default: 1, help: 'how many times to try the command until it succeeds' },
    try_sleep: { type: 'duration', default: '0s', help: 'how long to wait between tries' },
    unless: { type: 'list', items: COMMAND, help: 'check commands: the command runs only if every one of them exits non-zero' },
    onlyif: { type: 'list', items: COMMAND, help: 'check commands: the command runs only if every one of them exits 0' },
  },
  signals: ['refresh'],
} as const satisfies RunnerDescription;
