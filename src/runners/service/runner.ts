// The service runner: status -> decide -> act -> re-check, in apply mode (phase 1 running state,
// phase 2 enabled state) or, with a signal, in notification mode.
import { setTimeout as sleep } from 'node:timers/promises';
import { runCommand } from '../../shared/process.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { RunnerError, unknownSignal, type Runner, type RunnerRequest } from '../kit.js';
import { makeProvider } from './choose-provider.js';
import { appliedMessage, decide, decideSignal, isServiceSignal, noopMessage, SIGNALS, unmetDimensions, type Expectation } from './decide.js';
import { parseProperties } from './properties.js';
import { runMemory } from './run-memory.js';
import { contextFor, type CommandRunner, type ServiceProvider } from './provider.js';

/** How long a service may take to show the state its command just asked for. */
const SETTLE_MS = 2000;
const SETTLE_POLL_MS = 100;

/** The service runner, running its commands with `run` (tests pass a recorder). */
export function serviceRunner(run: CommandRunner = runCommand): Runner {
  return (request) => applyService(request, run);
}

export const runService: Runner = serviceRunner();

async function applyService(request: RunnerRequest, run: CommandRunner): Promise<RunnerResult> {
  // Everything that could reach a command line is validated before any command runs.
  const properties = parseProperties(request.name, request.params);
  const signal = request.signal;
  if (signal !== undefined && !isServiceSignal(signal)) throw unknownSignal(signal, [...SIGNALS]);

  const provider = makeProvider(properties, contextFor(request.env, request.log, run));
  const before = await provider.status(properties.name);
  const memory = runMemory(request.env.GOVERN_RUN_DIR, `${provider.name}-${properties.scope}-${properties.name}`);
  const decision =
    signal === undefined ? decide(properties, before) : decideSignal(signal, properties, before, memory.startedThisRun());
  if (decision.actions.length === 0) return { changed: false, message: decision.unchanged };

  if (request.noop) {
    for (const action of decision.actions) request.log(`noop: would ${action} ${properties.name} (${provider.name})`);
    return { changed: true, message: noopMessage(decision.actions) };
  }
  for (const action of decision.actions) {
    await provider[action](properties.name);
    if (action === 'start' || action === 'restart') memory.rememberStarted();
  }
  await checkReached(provider, properties.name, decision.expect);
  return { changed: true, message: appliedMessage(decision.actions) };
}

/** The seed's desired-state validation: re-read the status; the error names each dimension that missed. */
async function checkReached(provider: ServiceProvider, service: string, expect: Expectation): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const unmet = unmetDimensions(expect, await provider.status(service));
    if (unmet.length === 0) return;
    if (Date.now() >= deadline) {
      throw new RunnerError(`service ${service} did not reach the desired state: ${unmet.join('; ')}`);
    }
    await sleep(SETTLE_POLL_MS);
  }
}
