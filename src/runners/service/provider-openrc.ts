// The OpenRC provider (Alpine, Gentoo): `rc-service NAME status|start|stop|restart|reload` for the
// running state and the actions, `rc-update add|del` for the boot runlevels. Enabled means the
// service is in a runlevel the boot goes through (sysinit, boot, default), read straight from the
// links rc-update keeps in /etc/runlevels, so a status costs one command.
import fs from 'node:fs';
import path from 'node:path';
import { act, query, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunResult } from '../../shared/process.js';
import type { ServiceStatus } from '../lib/init-system.js';
import { COMMAND_TIMEOUT_MS, ServiceNotFound } from '../lib/init-system.js';
import type { ServiceProvider } from './provider.js';

const LIMIT = { timeoutMs: COMMAND_TIMEOUT_MS };

/** The runlevels a boot enters, in order: a service in any of them is started at boot. */
export const BOOT_RUNLEVELS = ['sysinit', 'boot', 'default'];

/** Where `enable` puts a service: the runlevel Alpine's and Gentoo's own services go to. */
const ENABLE_RUNLEVEL = 'default';

/** openrc-run's exit status for `status`: 0 started, 3 stopped (others: stopping 4, starting 8, inactive 16, crashed 32). */
const STARTED = 0;
const STOPPED = 3;

export function openrcProvider(context: ProviderContext, etc = '/etc'): ServiceProvider {
  async function change(argv: string[], hint?: (r: RunResult) => string | undefined): Promise<void> {
    await act(context, argv, { ...LIMIT, hint });
  }

  /** The boot runlevels the service is in: rc-update's links /etc/runlevels/LEVEL/NAME. */
  function runlevels(service: string): string[] {
    return BOOT_RUNLEVELS.filter((level) => {
      try {
        fs.lstatSync(path.join(etc, 'runlevels', level, service));
        return true;
      } catch {
        return false;
      }
    });
  }

  return {
    name: 'openrc',

    async status(service: string): Promise<ServiceStatus> {
      const argv = ['rc-service', service, 'status'];
      const result = await query(context, argv, LIMIT);
      if (result.code !== STARTED && result.code !== STOPPED) {
        // rc-service exits 1 for a service it cannot find: ask it whether that is the reason.
        if ((await query(context, ['rc-service', '--exists', service], LIMIT)).code !== 0) {
          throw new ServiceNotFound(`service ${service} not found: rc-service knows no such service (no /etc/init.d/${service})`);
        }
        throw new UserError(`service ${service} status is unknown: ${argv.join(' ')} exited ${result.code}${lastLine(result)}`);
      }
      return { running: result.code === STARTED, enabled: runlevels(service).length > 0 };
    },

    start(service: string): Promise<void> {
      return change(['rc-service', service, 'start']);
    },

    stop(service: string): Promise<void> {
      return change(['rc-service', service, 'stop']);
    },

    restart(service: string): Promise<void> {
      return change(['rc-service', service, 'restart']);
    },

    /** OpenRC has no reload of its own: a script offers it in extra_started_commands, or openrc-run refuses it. */
    reload(service: string): Promise<void> {
      return change(['rc-service', service, 'reload'], (r) =>
        /unknown function/.test(`${r.stdout}${r.stderr}`) ? `/etc/init.d/${service} does not support reload` : undefined,
      );
    },

    enable(service: string): Promise<void> {
      return change(['rc-update', 'add', service, ENABLE_RUNLEVEL]);
    },

    /** Out of every runlevel the boot enters; a service left in another runlevel (nonetwork, say) stays there. */
    async disable(service: string): Promise<void> {
      for (const level of runlevels(service)) await change(['rc-update', 'del', service, level]);
    },
  };
}

function lastLine(result: RunResult): string {
  const line = `${result.stdout}${result.stderr}`.trim().split('\n').pop()?.trim() ?? '';
  return line ? `: ${line}` : '';
}
