// The FreeBSD provider (rc.d): `service NAME onestatus` for the running state, `service NAME
// start|stop|restart|reload` for the actions, and the rc.conf variable NAME_enable, read with
// `sysrc -n` and written with `sysrc NAME_enable=YES|NO`, for the boot. rc.d refuses start, stop,
// restart and reload of a service whose NAME_enable is not YES ("use onestart instead"): the `one`
// form is used then, which acts whether or not the service is enabled.
//
// Written from the manual pages of service(8), sysrc(8), rc.subr(8) and rc.conf(5), and tested
// against fakes of service and sysrc that accept only that syntax: it has never run on FreeBSD
// (docs/portability.md).
import { act, query, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunResult } from '../../shared/process.js';
import type { ServiceStatus } from '../lib/init-system.js';
import { COMMAND_TIMEOUT_MS, ServiceNotFound } from '../lib/init-system.js';
import type { ServiceProvider } from './provider.js';

const LIMIT = { timeoutMs: COMMAND_TIMEOUT_MS };

/** rc.subr's checkyesno: these values (any case) mean yes. */
const YES = new Set(['yes', 'true', 'on', '1']);

export function freebsdProvider(context: ProviderContext): ServiceProvider {
  /** `service NAME COMMAND`, or `oneCOMMAND` when rc.conf does not enable the service. */
  async function rc(service: string, command: string): Promise<void> {
    const form = (await enabled(enableVariable(service))) ? command : `one${command}`;
    await act(context, ['service', service, form], LIMIT);
  }

  /** `sysrc -n VAR` prints the value (rc.conf, else its defaults); an unset variable is not enabled. */
  async function enabled(variable: string): Promise<boolean> {
    const result = await query(context, ['sysrc', '-n', variable], LIMIT);
    if (result.code !== 0) {
      if (/unknown variable/.test(result.stderr) && result.stdout.trim() === '') return false;
      throw new UserError(`cannot read ${variable}: sysrc -n ${variable} exited ${result.code}${lastLine(result)}`);
    }
    return YES.has(result.stdout.trim().toLowerCase());
  }

  /** `service -l` lists every script of /etc/rc.d and the local startup directories. */
  async function exists(service: string): Promise<boolean> {
    const result = await query(context, ['service', '-l'], LIMIT);
    if (result.code !== 0) throw new UserError(`service -l exited ${result.code}${lastLine(result)}`);
    return result.stdout.split('\n').some((line) => line.trim() === service);
  }

  return {
    name: 'freebsd',

    async status(service: string): Promise<ServiceStatus> {
      const variable = enableVariable(service);
      // rc.subr's status: exit 0 when the service runs, 1 when it does not (or rc.d knows no such script).
      const result = await query(context, ['service', service, 'onestatus'], LIMIT);
      if (result.code !== 0 && !(await exists(service))) {
        throw new ServiceNotFound(`service ${service} not found: no rc.d script of that name (service -l)`);
      }
      if (result.code !== 0 && result.code !== 1) throw new UserError(`service ${service} status is unknown: service ${service} onestatus exited ${result.code}${lastLine(result)}`);
      return { running: result.code === 0, enabled: await enabled(variable) };
    },

    start(service: string): Promise<void> {
      return rc(service, 'start');
    },

    stop(service: string): Promise<void> {
      return rc(service, 'stop');
    },

    restart(service: string): Promise<void> {
      return rc(service, 'restart');
    },

    reload(service: string): Promise<void> {
      return rc(service, 'reload');
    },

    async enable(service: string): Promise<void> {
      await act(context, ['sysrc', `${enableVariable(service)}=YES`], LIMIT);
    },

    async disable(service: string): Promise<void> {
      await act(context, ['sysrc', `${enableVariable(service)}=NO`], LIMIT);
    },
  };
}

/**
 * The rc.conf variable that enables a service: NAME_enable, with the `-` and `.` a script name may
 * have written `_` (rc.conf variables are shell variables). A name that cannot make one is refused.
 */
export function enableVariable(service: string): string {
  const variable = `${service.replace(/[-.]/g, '_')}_enable`;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new UserError(`service ${JSON.stringify(service)} cannot be a FreeBSD rc.d service: its rc.conf variable would be ${JSON.stringify(variable)}, not a shell variable name`);
  return variable;
}

function lastLine(result: RunResult): string {
  const line = `${result.stdout}${result.stderr}`.trim().split('\n').pop()?.trim() ?? '';
  return line ? `: ${line}` : '';
}
