// Which provider a request gets: the one it names, else systemd for a user scope or when systemd
// is the init system, else sysv.
import fs from 'node:fs';
import type { ProviderName, ServiceProperties } from './properties.js';
import type { ProviderContext, ServiceProvider } from './provider.js';
import { SystemdProvider } from './provider-systemd.js';
import { SysvProvider } from './provider-sysv.js';

/** systemd is the init system when this directory exists (sd_booted(3)). */
export const SYSTEMD_BOOTED_DIR = '/run/systemd/system';

export function chooseProviderName(properties: ServiceProperties, systemdBooted: () => boolean): ProviderName {
  if (properties.provider) return properties.provider;
  if (properties.scope === 'user') return 'systemd';
  return systemdBooted() ? 'systemd' : 'sysv';
}

export function makeProvider(properties: ServiceProperties, context: ProviderContext): ServiceProvider {
  const name = chooseProviderName(properties, () => fs.existsSync(SYSTEMD_BOOTED_DIR));
  return name === 'systemd' ? new SystemdProvider(context, properties.scope) : new SysvProvider(context);
}
