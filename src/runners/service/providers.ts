// The service providers, in order of preference: systemd for a user scope or when systemd is the
// init system, else sysv.
import fs from 'node:fs';
import type { ProviderContext } from '../../shared/command-runner.js';
import { chooseProvider, type ProviderOption } from '../provider-choice.js';
import type { ServiceProperties } from './properties.js';
import type { ServiceProvider } from './provider.js';
import { SystemdProvider } from './provider-systemd.js';
import { SysvProvider } from './provider-sysv.js';

/** systemd is the init system when this directory exists (sd_booted(3)). */
export const SYSTEMD_BOOTED_DIR = '/run/systemd/system';

/** The providers, given how to tell whether systemd is the init system. */
export function serviceProviders(systemdBooted: () => boolean): ProviderOption<ServiceProvider, ServiceProperties>[] {
  return [
    {
      name: 'systemd',
      tools: ['systemctl'],
      suits: (props) => (props.scope === 'user' ? 'scope = "user"' : systemdBooted() ? 'systemd is the init system' : undefined),
      create: (props, context) => new SystemdProvider(context, props.scope),
    },
    {
      name: 'sysv',
      tools: ['service'],
      suits: () => 'systemd is not the init system',
      create: (_props, context) => new SysvProvider(context, systemdBooted),
    },
  ];
}

const PROVIDERS = serviceProviders(() => fs.existsSync(SYSTEMD_BOOTED_DIR));

export function serviceProvider(properties: ServiceProperties, context: ProviderContext): Promise<ServiceProvider> {
  return chooseProvider('init system', PROVIDERS, properties.provider, properties, context);
}
