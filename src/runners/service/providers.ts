// The service providers, in order of preference: systemd for a user scope or when systemd is the
// init system, runit or OpenRC when it is, FreeBSD's rc.d where sysrc is,
// OpenBSD's where rcctl is, else sysv.
import fs from 'node:fs';
import type { ProviderContext } from '../../shared/command-runner.js';
import { chooseProvider, missingTools, type ProviderOption } from '../kit/provider-choice.js';
import type { ServiceProperties } from './properties.js';
import type { ServiceProvider } from './provider.js';
import { systemdProvider } from '../lib/systemd/systemctl.js';
import { sysvProvider } from './provider-sysv.js';
import { runitProvider } from './provider-runit.js';
import { openrcProvider } from './provider-openrc.js';
import { freebsdProvider } from './provider-freebsd.js';
import { openbsdProvider } from './provider-openbsd.js';

/** systemd is the init system when this directory exists (sd_booted(3)). */
export const SYSTEMD_BOOTED_DIR = '/run/systemd/system';

/** Void's runit stage 2 runs runsvdir on this directory; another system's runit package does not make it. */
export const RUNIT_BOOTED_DIR = '/run/runit/runsvdir';

/** OpenRC writes the runlevel it entered here at boot (rc-status and openrc-run read it). */
export const OPENRC_BOOTED_FILE = '/run/openrc/softlevel';

/** The providers, given how to tell whether systemd (or runit, or OpenRC) is the init system. */
export function serviceProviders(
  systemdBooted: () => boolean,
  runitBooted: () => boolean = () => fs.existsSync(RUNIT_BOOTED_DIR),
  openrcBooted: () => boolean = () => fs.existsSync(OPENRC_BOOTED_FILE),
): ProviderOption<ServiceProvider, ServiceProperties>[] {
  return [
    {
      name: 'systemd',
      tools: ['systemctl'],
      suits: (props) => (props.scope === 'user' ? 'scope = "user"' : systemdBooted() ? 'systemd is the init system' : undefined),
      create: (props, context) => systemdProvider(context, props.scope),
    },
    {
      // Before sysv: a host where runsvdir is running as its supervisor (Void) has no rc links to manage.
      name: 'runit',
      tools: ['sv'],
      suits: () => (runitBooted() ? 'runit is the init system' : undefined),
      create: (_props, context) => runitProvider(context),
    },
    {
      // Before sysv too: Alpine's and Gentoo's /etc/init.d scripts are OpenRC's, run by openrc-run.
      name: 'openrc',
      tools: ['rc-service', 'rc-update'],
      suits: () => (openrcBooted() ? 'OpenRC is the init system' : undefined),
      create: (_props, context) => openrcProvider(context),
    },
    {
      // FreeBSD's rc.d: sysrc is in its base system and nowhere else (Debian has a service(8) of its own).
      name: 'freebsd',
      tools: ['service', 'sysrc'],
      suits: (_props, context) => (missingTools(['sysrc'], context).length === 0 ? 'sysrc is on PATH (FreeBSD)' : undefined),
      create: (_props, context) => freebsdProvider(context),
    },
    {
      // OpenBSD's rcctl, in its base system and nowhere else.
      name: 'openbsd',
      tools: ['rcctl'],
      suits: (_props, context) => (missingTools(['rcctl'], context).length === 0 ? 'rcctl is on PATH (OpenBSD)' : undefined),
      create: (_props, context) => openbsdProvider(context),
    },
    {
      name: 'sysv',
      tools: ['service'],
      suits: () => 'systemd is not the init system',
      create: (_props, context) => sysvProvider(context, systemdBooted),
    },
  ];
}

const PROVIDERS = serviceProviders(() => fs.existsSync(SYSTEMD_BOOTED_DIR));

export function serviceProvider(properties: ServiceProperties, context: ProviderContext): Promise<ServiceProvider> {
  return chooseProvider('init system', PROVIDERS, properties.provider, properties, context);
}
