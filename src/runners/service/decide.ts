// The service decision, from the seed (service-type.txt): desired properties + current status ->
// the actions to take, in order, and the messages that describe them. Pure: no I/O.
import type { description } from './description.js';
import type { ServiceStatus } from '../lib/init-system.js';
import type { RunState } from './properties.js';

export type { ServiceStatus };

export interface DesiredState {
  ensure: RunState;
  /** Undefined: leave the boot configuration alone. */
  enable?: boolean;
}

export type ServiceAction = 'start' | 'stop' | 'restart' | 'reload' | 'enable' | 'disable';

/** What the service must look like after the actions; a dimension left out is not checked. */
export interface Expectation {
  running?: boolean;
  enabled?: boolean;
}

export interface Decision {
  actions: ServiceAction[];
  /** Checked against the status re-read after the actions ran. */
  expect: Expectation;
  /** The message when there is nothing to do. */
  unchanged: string;
}

/** The signals the service runner understands in notification mode (its description lists them). */
export type ServiceSignal = (typeof description.signals)[number];

/** Phase 1, the running state: the seed's idempotency table, running half. */
export function decideRunning(ensure: RunState, status: ServiceStatus): ServiceAction | undefined {
  if (ensure === 'running' && !status.running) return 'start';
  if (ensure === 'stopped' && status.running) return 'stop';
  return undefined;
}

/** Phase 2, the enabled state: the seed's idempotency table, enabled half (unset: no change). */
export function decideEnabled(enable: boolean | undefined, status: ServiceStatus): ServiceAction | undefined {
  if (enable === true && !status.enabled) return 'enable';
  if (enable === false && status.enabled) return 'disable';
  return undefined;
}

/** Apply mode: phase 1 then phase 2. */
export function decide(desired: DesiredState, status: ServiceStatus): Decision {
  const actions = [decideRunning(desired.ensure, status), decideEnabled(desired.enable, status)].filter(isAction);
  return { actions, expect: desiredExpectation(desired), unchanged: describeStatus(status, desired.enable !== undefined) };
}

/**
 * Notification mode: act only on the signal. refresh and restart follow the seed's subscribe
 * special cases (ensure = stopped ignores them; a stopped service is started, not restarted; a
 * running one restarts); reload the same, reloading instead of restarting. A service that this
 * very run already started or restarted has its new configuration: no second restart. start
 * and stop do what they say when the service is not already so.
 */
export function decideSignal(signal: ServiceSignal, desired: DesiredState, status: ServiceStatus, startedThisRun = false): Decision {
  switch (signal) {
    case 'refresh':
    case 'restart':
    case 'reload': {
      if (desired.ensure === 'stopped') return nothing(`${signal} ignored: ensure is stopped`);
      if (!status.running) return { actions: ['start'], expect: { running: true }, unchanged: '' };
      if (startedThisRun) return nothing(`${signal} not needed: started in this run`);
      return { actions: [signal === 'reload' ? 'reload' : 'restart'], expect: { running: true }, unchanged: '' };
    }
    case 'start':
      return status.running ? nothing('already running') : { actions: ['start'], expect: { running: true }, unchanged: '' };
    case 'stop':
      return status.running ? { actions: ['stop'], expect: { running: false }, unchanged: '' } : nothing('already stopped');
  }
}

function nothing(unchanged: string): Decision {
  return { actions: [], expect: {}, unchanged };
}

/** The seed's isDesiredState, as an expectation: ensure always, enable only when set. */
export function desiredExpectation(desired: DesiredState): Expectation {
  const expect: Expectation = { running: desired.ensure === 'running' };
  if (desired.enable !== undefined) expect.enabled = desired.enable;
  return expect;
}

/** The dimensions that did not reach the expectation, each as "running state is stopped, wanted running". */
export function unmetDimensions(expect: Expectation, status: ServiceStatus): string[] {
  const unmet: string[] = [];
  if (expect.running !== undefined && expect.running !== status.running) {
    unmet.push(`running state is ${runWord(status.running)}, wanted ${runWord(expect.running)}`);
  }
  if (expect.enabled !== undefined && expect.enabled !== status.enabled) {
    unmet.push(`enabled state is ${enableWord(status.enabled)}, wanted ${enableWord(expect.enabled)}`);
  }
  return unmet;
}

const PAST: Record<ServiceAction, string> = {
  start: 'started',
  stop: 'stopped',
  restart: 'restarted',
  reload: 'reloaded',
  enable: 'enabled',
  disable: 'disabled',
};

/** The seed's noop messages: "Would have started"; two actions: "Would have started; Would have enabled". */
export function noopMessage(actions: ServiceAction[]): string {
  return actions.map((a) => `Would have ${PAST[a]}`).join('; ');
}

/** "started", "stopped; disabled". */
export function appliedMessage(actions: ServiceAction[]): string {
  return actions.map((a) => PAST[a]).join('; ');
}

/** "running", "stopped, enabled": the state when nothing needed doing. */
export function describeStatus(status: ServiceStatus, withEnabled: boolean): string {
  return withEnabled ? `${runWord(status.running)}, ${enableWord(status.enabled)}` : runWord(status.running);
}

function runWord(running: boolean): RunState {
  return running ? 'running' : 'stopped';
}

function enableWord(enabled: boolean): string {
  return enabled ? 'enabled' : 'disabled';
}

function isAction(action: ServiceAction | undefined): action is ServiceAction {
  return action !== undefined;
}
