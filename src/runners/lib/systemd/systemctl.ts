// systemctl, for the system manager or (scope = "user") the calling user's manager: the service
// runner's systemd provider, and how cron starts its timers. Never interactive (--no-ask-password),
// and no daemon-reload here: unit files are the user's or their package's business.
import { commandFailure } from '../../../shared/command-failure.js';
import { act, query, type ProviderContext } from '../../../shared/command-runner.js';
import { UserError } from '../../../shared/errors.js';
import type { RunResult } from '../../../shared/process.js';
import { displayCommand } from '../../../shared/shell-display.js';
import { COMMAND_TIMEOUT_MS, ServiceNotFound, type ServiceStatus } from '../init-system.js';
import type { SystemdScope } from './unit-directory.js';

/** The systemd provider of the service runner (its ServiceProvider), and the argv of each call. */
export interface SystemdProvider {
  readonly name: 'systemd';
  /** `systemctl [--user] --no-ask-password VERB -- SERVICE`: the one shape of every call. */
  argv(verb: string, service: string): string[];
  status(service: string): Promise<ServiceStatus>;
  start(service: string): Promise<void>;
  stop(service: string): Promise<void>;
  restart(service: string): Promise<void>;
  reload(service: string): Promise<void>;
  enable(service: string): Promise<void>;
  disable(service: string): Promise<void>;
}

export function systemdProvider(context: ProviderContext, scope: SystemdScope): SystemdProvider {
  async function run(verb: string, service: string, hint?: (r: RunResult) => string | undefined): Promise<void> {
    await act(context, provider.argv(verb, service), { timeoutMs: COMMAND_TIMEOUT_MS, hint });
  }

  function shown(verb: string, service: string): string {
    return displayCommand(provider.argv(verb, service));
  }

  function failure(verb: string, service: string, result: RunResult): UserError {
    const hint =
      scope === 'user' && /Failed to connect to bus/i.test(result.stderr)
        ? 'scope = "user" needs a running `systemd --user` manager and XDG_RUNTIME_DIR pointing at its runtime directory'
        : undefined;
    return new UserError(commandFailure(shown(verb, service), { ...result, stdout: '' }, { lines: 2, hint }));
  }

  const provider: SystemdProvider = {
    name: 'systemd',

    /** `systemctl [--user] --no-ask-password VERB -- SERVICE`: the one shape of every call. */
    argv(verb: string, service: string): string[] {
      return ['systemctl', ...(scope === 'user' ? ['--user'] : []), '--no-ask-password', verb, '--', service];
    },

    async status(service: string): Promise<ServiceStatus> {
      const [active, enabled] = await Promise.all([
        query(context, provider.argv('is-active', service), { timeoutMs: COMMAND_TIMEOUT_MS }),
        query(context, provider.argv('is-enabled', service), { timeoutMs: COMMAND_TIMEOUT_MS }),
      ]);
      // Both answer with their exit status and a state word on stdout; no word means systemctl
      // itself failed (no manager to talk to, no such unit file).
      if (active.code !== 0 && active.stdout.trim() === '') throw failure('is-active', service, active);
      const enabledWord = enabled.stdout.trim();
      if (enabledWord === 'not-found' || (enabled.code !== 0 && enabledWord === '' && /No such file|not found/i.test(enabled.stderr))) {
        throw new ServiceNotFound(`service ${service} not found: no ${scope === 'user' ? 'user ' : ''}unit file for it (${shown('is-enabled', service)})`);
      }
      if (enabled.code !== 0 && enabledWord === '') throw failure('is-enabled', service, enabled);
      // systemctl's own verdict: is-active exits 0 for active (and reloading); is-enabled exits 0
      // for enabled, enabled-runtime, static, indirect, alias and generated.
      return { running: active.code === 0, enabled: enabled.code === 0 };
    },

    start(service: string): Promise<void> {
      return run('start', service);
    },

    stop(service: string): Promise<void> {
      return run('stop', service);
    },

    restart(service: string): Promise<void> {
      return run('restart', service);
    },

    reload(service: string): Promise<void> {
      return run('reload', service, (r) =>
        /not applicable|not supported/i.test(r.stderr) ? `service ${service} does not support reload (its unit has no ExecReload=)` : undefined,
      );
    },

    enable(service: string): Promise<void> {
      return run('enable', service);
    },

    disable(service: string): Promise<void> {
      return run('disable', service);
    },
  };
  return provider;
}
