// What the service runner accepts, declared once: govern checks state files against it, and the
// runner reads its arguments with it (docs/service.md).
import type { RunnerDescription } from '../../shared/description.js';
import { PACKAGE_NAME_CHARS } from '../../shared/validate.js';

/** The seed's name characters, and `@` for systemd's template instances (`getty@tty1`). */
const SERVICE_NAME_CHARS = `@${PACKAGE_NAME_CHARS}`;

const RUN_STATES = ['running', 'stopped'] as const;

export const description = {
  help: 'a service: running or stopped, started at boot or not, with systemd, sysv init, runit, OpenRC, or the BSDs\' rc.d',
  name: {
    type: 'string',
    chars: SERVICE_NAME_CHARS,
    what: 'a service name (letters, digits and . _ + : ~ - @, not starting with -)',
    help: 'the systemd unit (nginx means nginx.service; getty@tty1 an instance of getty@.service) or the /etc/init.d script (sysv, OpenRC), or the /etc/sv directory (runit), or the rc.d script (FreeBSD, OpenBSD)',
  },
  keys: {
    ensure: { type: 'enum', values: RUN_STATES, default: 'running', help: 'the running state' },
    state: { type: 'enum', values: RUN_STATES, help: 'the same as ensure, in the words of govern\'s README' },
    enable: { type: 'boolean', help: 'true: start at boot; false: do not; not given: leave the boot configuration as it is' },
    provider: { type: 'enum', values: ['systemd', 'sysv', 'runit', 'openrc', 'freebsd', 'openbsd'], help: 'the init system; chosen from the host when not given (see Providers)' },
    scope: { type: 'enum', values: ['system', 'user'], default: 'system', help: 'systemd only: user manages the calling user\'s units with systemctl --user' },
  },
  rules: [{ exclusive: ['ensure', 'state'] }, { when: { scope: ['user'] }, values: { provider: ['systemd'] } }],
  signals: ['refresh', 'restart', 'reload', 'start', 'stop'],
  // The unit files it is loaded from first: a changed unit is reloaded before the service is checked.
  // The unit first; when it is being removed, the service first (stopped and disabled while systemd still knows it).
  autorequire: [{ runner: 'unit', systemd_unit_of_name: true, reverse_when_other: { ensure: ['absent'] } }],
} as const satisfies RunnerDescription;
