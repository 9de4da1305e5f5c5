// The sysv provider, for hosts without systemd as init (containers, WSL, Devuan): the init script's
// `status` for the running state, Debian's `service` for the actions and `update-rc.d` for the boot
// links, whose state is read straight from /etc/rc?.d. The status path is one command and a few
// directory reads.
import fs from 'node:fs';
import path from 'node:path';
import { act, query, type ProviderContext } from '../../shared/command-runner.js';
import { listDirectory } from '../../shared/directory-listing.js';
import { UserError } from '../../shared/errors.js';
import type { RunResult } from '../../shared/process.js';
import type { ServiceStatus } from '../lib/init-system.js';
import { COMMAND_TIMEOUT_MS, ServiceNotFound } from '../lib/init-system.js';
import type { ServiceProvider } from './provider.js';

/** Every command of this provider runs under the same time limit. */
const LIMIT = { timeoutMs: COMMAND_TIMEOUT_MS };

/** The runlevels update-rc.d enable/disable toggle: a start link in one of them means enabled. */
const BOOT_RUNLEVELS = ['S', '2', '3', '4', '5'];
const ALL_RUNLEVELS = ['S', '0', '1', '2', '3', '4', '5', '6'];

const RC_LINK = /^[SK][0-9][0-9](.+)$/;
const indexed = new WeakMap<readonly string[], Map<string, string[]>>();

/** A runlevel directory's links by the service they belong to, once per listing. */
function linksByService(entries: readonly string[]): Map<string, string[]> {
  let index = indexed.get(entries);
  if (!index) {
    index = new Map();
    for (const entry of entries) {
      const m = RC_LINK.exec(entry);
      if (m) index.set(m[1], [...(index.get(m[1]) ?? []), entry]);
    }
    indexed.set(entries, index);
  }
  return index;
}

/** What service(8) keeps of the caller's environment for an init script (it runs `env -i` with these). */
const SCRIPT_ENVIRONMENT = /^(LANG|LANGUAGE|LC_[A-Z]+|PATH|TERM)$/;

function scriptEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k, v]) => SCRIPT_ENVIRONMENT.test(k) && v !== undefined));
}

/** systemdBooted: whether systemd is the init system: then service(8) hands the status to systemctl. */
export function sysvProvider(context: ProviderContext, systemdBooted: () => boolean, etc = '/etc'): ServiceProvider {
  async function change(argv: string[], hint?: (r: RunResult) => string | undefined): Promise<void> {
    await act(context, argv, { ...LIMIT, hint });
  }

  /** update-rc.d toggles existing links only: a script without any gets its defaults first. */
  async function toggle(action: 'enable' | 'disable', service: string): Promise<void> {
    if (links(service, ALL_RUNLEVELS).length === 0) await change(['update-rc.d', service, 'defaults']);
    await change(['update-rc.d', service, action]);
  }

  /** The names of the rc links of a service ("S01nginx", "K01nginx") in the given runlevels. */
  function links(service: string, runlevels: string[]): string[] {
    const found: string[] = [];
    for (const level of runlevels) {
      let entries: readonly string[];
      try {
        entries = listDirectory(path.join(etc, `rc${level}.d`));
      } catch {
        continue; // a runlevel directory that does not exist has no links
      }
      found.push(...(linksByService(entries).get(service) ?? []));
    }
    return found;
  }

  function requireScript(service: string): void {
    const script = path.join(etc, 'init.d', service);
    try {
      fs.accessSync(script, fs.constants.X_OK);
    } catch {
      throw new ServiceNotFound(`service ${service} not found: no executable init script ${script}`);
    }
  }

  /** LSB: exit 3 is "unimplemented feature"; many scripts answer an unknown action with their usage. */
  function noReload(service: string, result: RunResult): string | undefined {
    if (result.code === 3 || /usage/i.test(`${result.stdout}${result.stderr}`)) {
      return `${path.join(etc, 'init.d', service)} does not support reload`;
    }
    return undefined;
  }

  return {
    name: 'sysv',

    async status(service: string): Promise<ServiceStatus> {
      requireScript(service);
      // LSB status codes: 0 running; 1, 2 dead with a pid or lock file left; 3 not running; 4 unknown.
      // Without systemd as init, service(8) runs the script from / with only the locale, PATH and
      // TERM: doing that ourselves skips the wrapper, a shell script that costs twice the script's own
      // status, in the check most runs consist of. With systemd, service(8) asks systemctl: go through it.
      const script = path.join(etc, 'init.d', service);
      const [argv, options] = systemdBooted()
        ? [['service', service, 'status'], LIMIT]
        : [[script, 'status'], { ...LIMIT, wholeEnv: scriptEnvironment(context.env), cwd: '/' }];
      const result = await query(context, argv, options);
      if (result.code === null || result.code > 3) {
        const output = `${result.stdout}${result.stderr}`.trim().split('\n').pop() ?? '';
        throw new UserError(`service ${service} status is unknown: ${argv.join(' ')} exited ${result.code}${output ? `: ${output}` : ''}`);
      }
      return { running: result.code === 0, enabled: links(service, BOOT_RUNLEVELS).some((l) => l.startsWith('S')) };
    },

    start(service: string): Promise<void> {
      return change(['service', service, 'start']);
    },

    stop(service: string): Promise<void> {
      return change(['service', service, 'stop']);
    },

    restart(service: string): Promise<void> {
      return change(['service', service, 'restart']);
    },

    reload(service: string): Promise<void> {
      return change(['service', service, 'reload'], (r) => noReload(service, r));
    },

    enable(service: string): Promise<void> {
      return toggle('enable', service);
    },

    disable(service: string): Promise<void> {
      return toggle('disable', service);
    },
  };
}
