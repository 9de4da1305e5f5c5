// The runit provider (Void Linux, and runit on any system): a service is a directory under /etc/sv
// with a `run` script, supervised once it is linked into the directory runsvdir watches ($SVDIR,
// else /var/service as on Void, else /etc/service as on Debian). `sv` starts, stops, restarts and
// reloads (HUP) it. Enabled means supervised and started when its runsv starts (at boot): linked,
// with no `down` file in the service directory, runit's own switch for "do not start automatically".
// So a service can be running and disabled (a `down` file) or stopped and enabled.
import fs from 'node:fs';
import path from 'node:path';
import { act, query, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { ServiceStatus } from '../lib/init-system.js';
import { COMMAND_TIMEOUT_MS, ServiceNotFound } from '../lib/init-system.js';
import type { ServiceProvider } from './provider.js';

const LIMIT = { timeoutMs: COMMAND_TIMEOUT_MS };
/** runsvdir looks for new links at least every five seconds; allow for a busy machine. */
const SUPERVISED_WITHIN_MS = 60_000;
const POLL_MS = 200;

/** The directory runsvdir watches: $SVDIR (as sv reads it), else Void's /var/service, else Debian's /etc/service. */
export function runsvdirOf(env: NodeJS.ProcessEnv): string {
  if (env.SVDIR) return env.SVDIR;
  return fs.existsSync('/var/service') ? '/var/service' : '/etc/service';
}

export function runitProvider(context: ProviderContext, definitions = '/etc/sv'): ServiceProvider {
  const serviceDir = runsvdirOf(context.env);
  function link_(service: string): string {
    return path.join(serviceDir, service);
  }

  function linked(service: string): boolean {
    return fs.existsSync(link_(service));
  }

  function definitionOf(service: string): string {
    const dir = path.join(definitions, service);
    try {
      fs.accessSync(path.join(dir, 'run'), fs.constants.X_OK);
    } catch {
      throw new ServiceNotFound(`service ${service} not found: no executable ${path.join(dir, 'run')}`);
    }
    return dir;
  }

  /**
   * Links the service into runsvdir's directory, if it is not, with a `down` file first: runsv
   * does not start it on its own (the caller decides), and a service that was not linked, so not
   * started at boot, stays so until `enable`. Then waits for runsv to supervise it.
   */
  async function link(service: string): Promise<void> {
    const definition = definitionOf(service);
    if (!linked(service)) {
      const down = path.join(definition, 'down');
      if (!fs.existsSync(down)) {
        context.log(`$ touch ${down}`);
        fs.writeFileSync(down, '');
      }
      context.log(`$ ln -s ${definition} ${link_(service)}`);
      fs.symlinkSync(definition, link_(service));
    }
    await supervised(service);
  }

  /** `sv status` once runsv answers for the service (runsvdir starts one within seconds of the link). */
  async function supervised(service: string): Promise<{ stdout: string }> {
    const deadline = Date.now() + SUPERVISED_WITHIN_MS;
    for (;;) {
      const result = await query(context, ['sv', 'status', link_(service)], LIMIT);
      if (result.code === 0 && /^(run|down|finish):/.test(result.stdout)) return result;
      if (Date.now() > deadline) {
        throw new UserError(`service ${service} is linked into ${serviceDir} but no runsv supervises it (is runsvdir running there?): ${`${result.stdout}${result.stderr}`.trim()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  return {
    name: 'runit',

    async status(service: string): Promise<ServiceStatus> {
      const definition = definitionOf(service);
      if (!linked(service)) return { running: false, enabled: false };
      const result = await supervised(service);
      return { running: result.stdout.startsWith('run:'), enabled: !fs.existsSync(path.join(definition, 'down')) };
    },

    async start(service: string): Promise<void> {
      await link(service);
      await act(context, ['sv', 'start', link_(service)], LIMIT);
    },

    async stop(service: string): Promise<void> {
      if (!linked(service)) return;
      await act(context, ['sv', 'stop', link_(service)], LIMIT);
    },

    async restart(service: string): Promise<void> {
      await link(service);
      await act(context, ['sv', 'restart', link_(service)], LIMIT);
    },

    async reload(service: string): Promise<void> {
      await link(service);
      await act(context, ['sv', 'reload', link_(service)], LIMIT);
    },

    /** Supervised, and no `down` file: runsv starts it when it starts (at boot). Starts nothing now. */
    async enable(service: string): Promise<void> {
      await link(service);
      const down = path.join(definitionOf(service), 'down');
      if (fs.existsSync(down)) {
        context.log(`$ rm ${down}`);
        fs.rmSync(down);
      }
    },

    /** A `down` file: not started at boot; a running service keeps running, and stays supervised. */
    async disable(service: string): Promise<void> {
      const down = path.join(definitionOf(service), 'down');
      context.log(`$ touch ${down}`);
      fs.writeFileSync(down, '');
    },
  };
}
