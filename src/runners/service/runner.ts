// The service runner: status -> decide -> act -> re-check, in apply mode (phase 1 running state,
// phase 2 enabled state) or, with a signal, in notification mode.
import { setTimeout as sleep } from 'node:timers/promises';
import { providerContext, type CommandRunner } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { runCommand } from '../../shared/process.js';
import type { RunnerResult } from '../../shared/protocol.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { pendingNote, pendingOf, pendingResource } from '../kit/noop-pending.js';
import { reloadIfPending, unitsWouldChange } from '../lib/systemd/daemon-reload.js';
import { appliedMessage, decide, decideSignal, noopMessage, unmetDimensions, type Expectation, type ServiceSignal, type ServiceStatus } from './decide.js';
import { description } from './description.js';
import { serviceProperties } from './properties.js';
import { ServiceNotFound } from '../lib/init-system.js';
import type { ServiceProvider } from './provider.js';
import { withSbinPath } from '../../shared/find-program.js';
import { serviceProvider } from './providers.js';
import { runMemory } from './run-memory.js';

/** How long a service may take to show the state its command just asked for. */
const SETTLE_MS = 2000;
const SETTLE_POLL_MS = 100;

/** The service runner, running its commands with `run` (tests pass a recorder). */
export function serviceRunner(run: CommandRunner = runCommand): RunnerDefinition<typeof description> {
  return { name: 'service', description, run: (request) => applyService(request, run) };
}

async function applyService(request: RunnerRequest<Values<typeof description>>, run: CommandRunner): Promise<RunnerResult> {
  const properties = serviceProperties(request);
  const signal = request.signal as ServiceSignal | undefined; // the kit lets through only the signals described
  const context = providerContext(withSbinPath(request.env), request.log, run);
  const provider = await serviceProvider(properties, context);
  // A unit changed earlier in this run: systemd reads it before the service is checked or started.
  if (provider.name === 'systemd') await reloadIfPending(request.env.GOVERN_RUN_DIR, properties.scope, context);
  const { status: before, note } = await readStatus(provider, properties, request);
  if (before === undefined) return { changed: true, message: `Would have checked ${properties.name} once its unit is written (a unit this run would change; not loaded in noop)` };
  const memory = runMemory(request.env.GOVERN_RUN_DIR, `${provider.name}-${properties.scope}-${properties.name}`);
  const decision =
    signal === undefined ? decide(properties, before) : decideSignal(signal, properties, before, memory.startedThisRun());
  if (decision.actions.length === 0) return { changed: false, message: decision.unchanged };

  if (request.noop) {
    for (const action of decision.actions) request.log(`noop: would ${action} ${properties.name} (${provider.name})`);
    return { changed: true, message: noopMessage(decision.actions) + (note ? ` (${note})` : '') };
  }
  for (const action of decision.actions) {
    await provider[action](properties.name);
    if (action === 'start' || action === 'restart') memory.rememberStarted();
  }
  await checkReached(provider, properties.name, decision.expect);
  return { changed: true, message: appliedMessage(decision.actions) };
}

/**
 * The status. In noop mode, after a unit of the scope would have changed (not written: noop), a
 * status that fails (the unit does not exist yet) is undefined instead of a failure; and a service
 * the init system does not know yet may come with a package (or a unit file, an init script) an
 * earlier resource of the run would install: then it is taken as stopped and disabled, with a note
 * naming that resource. A service asked to be stopped and not enabled that the init system does not
 * know (its unit or script removed: a retired service) is in that state already.
 */
async function readStatus(provider: ServiceProvider, properties: ReturnType<typeof serviceProperties>, request: RunnerRequest<unknown>): Promise<{ status?: ServiceStatus; note?: string }> {
  const { name: service, scope } = properties;
  try {
    return { status: await provider.status(service) };
  } catch (e) {
    if (request.noop && provider.name === 'systemd' && unitsWouldChange(request.env.GOVERN_RUN_DIR, scope)) {
      request.log(`noop: ${(e as Error).message}`);
      return {};
    }
    if (!(e instanceof ServiceNotFound)) throw e;
    if (properties.ensure === 'stopped' && properties.enable !== true && request.signal === undefined) {
      request.log(`${(e as Error).message}: taken as stopped and disabled`);
      return { status: { running: false, enabled: false } };
    }
    const files = request.pending.filter((ref) => ref.startsWith('file:') && (ref.endsWith(`/init.d/${service}`) || ref.endsWith(`/${service}.service`)));
    const creator = pendingResource(request, `pkg:${service}`) ?? files[0] ?? pendingOf(request, 'pkg')[0];
    if (!creator) throw e;
    return { status: { running: false, enabled: false }, note: pendingNote([{ what: `service ${service}`, ref: creator }]) };
  }
}

/** The seed's desired-state validation: re-read the status; the error names each dimension that missed. */
async function checkReached(provider: ServiceProvider, service: string, expect: Expectation): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const unmet = unmetDimensions(expect, await provider.status(service));
    if (unmet.length === 0) return;
    if (Date.now() >= deadline) {
      throw new UserError(`service ${service} did not reach the desired state: ${unmet.join('; ')}`);
    }
    await sleep(SETTLE_POLL_MS);
  }
}
