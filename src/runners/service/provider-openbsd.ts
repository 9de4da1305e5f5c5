// The OpenBSD provider: rcctl(8) for everything. `rcctl check NAME` for the running state (exit 0
// running, 1 not), `rcctl get NAME status` for the enabled state (exit 0 enabled, 1 not), `rcctl
// start|stop|restart|reload NAME` and `rcctl enable|disable NAME` (rc.conf.local). rcctl exits 2
// for a service that does not exist. rc.d(8) starts a daemon its rc.conf.local leaves disabled only
// when forced: start and restart of a disabled service are `rcctl -f start|restart NAME`.
//
// Written from the manual pages of rcctl(8) and rc.d(8), and tested against a fake rcctl that
// accepts only that syntax: it has never run on OpenBSD (docs/portability.md).
import { act, query, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunResult } from '../../shared/process.js';
import type { ServiceStatus } from '../lib/init-system.js';
import { COMMAND_TIMEOUT_MS, ServiceNotFound } from '../lib/init-system.js';
import type { ServiceProvider } from './provider.js';

const LIMIT = { timeoutMs: COMMAND_TIMEOUT_MS };

/** rcctl's exit status for a service that does not exist. */
const NO_SUCH_SERVICE = 2;

export function openbsdProvider(context: ProviderContext): ServiceProvider {
  /** start and restart: forced (-f) when rc.conf.local does not enable the service, as rc.d(8) asks. */
  async function rcctl(service: string, command: string): Promise<void> {
    const enabled = await yesNo(service, ['rcctl', 'get', service, 'status']);
    await act(context, enabled ? ['rcctl', command, service] : ['rcctl', '-f', command, service], LIMIT);
  }

  /** A query answered by its exit status: 0 yes, 1 no, 2 no such service. */
  async function yesNo(service: string, argv: string[]): Promise<boolean> {
    const result = await query(context, argv, LIMIT);
    if (result.code === 0 || result.code === 1) return result.code === 0;
    if (result.code === NO_SUCH_SERVICE) throw new ServiceNotFound(`service ${service} not found: rcctl knows no such service (exit 2)`);
    throw new UserError(`service ${service} status is unknown: ${argv.join(' ')} exited ${result.code}${lastLine(result)}`);
  }

  return {
    name: 'openbsd',

    async status(service: string): Promise<ServiceStatus> {
      checkName(service);
      const running = await yesNo(service, ['rcctl', 'check', service]);
      const enabled = await yesNo(service, ['rcctl', 'get', service, 'status']);
      return { running, enabled };
    },

    async start(service: string): Promise<void> {
      await rcctl(service, 'start');
    },

    async stop(service: string): Promise<void> {
      await act(context, ['rcctl', 'stop', service], LIMIT);
    },

    async restart(service: string): Promise<void> {
      await rcctl(service, 'restart');
    },

    async reload(service: string): Promise<void> {
      await act(context, ['rcctl', 'reload', service], LIMIT);
    },

    async enable(service: string): Promise<void> {
      await act(context, ['rcctl', 'enable', service], LIMIT);
    },

    async disable(service: string): Promise<void> {
      await act(context, ['rcctl', 'disable', service], LIMIT);
    },
  };
}

/** rcctl's services are rc.d scripts whose name makes rc.conf.local variables (NAME_flags). */
function checkName(service: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(service)) {
    throw new UserError(`service ${JSON.stringify(service)} cannot be an OpenBSD rc.d service: rcctl takes names of letters, digits and _ (they make the rc.conf.local variable NAME_flags)`);
  }
}

function lastLine(result: RunResult): string {
  const line = `${result.stdout}${result.stderr}`.trim().split('\n').pop()?.trim() ?? '';
  return line ? `: ${line}` : '';
}
