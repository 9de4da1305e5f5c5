// The staged rollout at `govern pull` (docs/rollout-stages.md): whether this host may switch its tree
// to a new commit, from what the fleet's hosts published. A commit any host reverted is quarantined
// for all; a host of the first stage takes any other; a host of a later stage takes it once every host
// of the earlier stages holds it healthy (for the stage's `after`, with one). Another host's record
// is untrusted: only values that pass their schema (published.ts) count, and names printed are bounded.
import { expectedHoldMs, readRollout, stageName, stageOf, type Rollout } from '../pull/rollout-file.js';
import type { GateVerdict, StageGate } from '../pull/stage-gate.js';
import { formatDuration } from '../shared/duration.js';
import { terminalLine } from '../shared/terminal-text.js';
import type { HostRun } from './host-record.js';
import { checkFacts, checkRun } from './published.js';
import { hostInbox } from './publish.js';
import { readFleet, withFleet, type FleetState } from './read-fleet.js';
import { healthyAt } from './rollout-fields.js';
import type { FleetSettings } from './settings.js';

/** The gate `govern pull` asks (pull/stage-gate.ts) for a tree that has rollout.hcl, as `host` in the fleet. */
export function fleetStageGate(settings: FleetSettings, host: string): StageGate {
  return async (tree, commit, old) => {
    const rollout = readRollout(tree)!;
    // As the host: its credentials (fleet.md's per-host permissions) hear replies under its own inbox only.
    const inbox = hostInbox(host);
    const state = await withFleet(settings, `govern pull ${host}`, (nc) => readFleet(nc, settings, inbox), inbox);
    return gateVerdict(rollout, state, { host, commit, first: old === undefined }, Date.now());
  };
}

/** The decision alone, over the buckets' values as read. */
export function gateVerdict(rollout: Rollout, state: FleetState, me: { host: string; commit: string; first: boolean }, nowMs: number): GateVerdict {
  const runs = new Map<string, HostRun>();
  for (const [host, v] of state.runs) {
    const c = checkRun(host, v, nowMs);
    if (c.ok) runs.set(host, c.value);
  }
  const reverting = [...runs.values()].filter((run) => run.reverted?.from === me.commit || run.quarantined?.includes(me.commit) === true).map((run) => run.host);
  if (reverting.length > 0) return { kind: 'quarantined', reason: `commit ${me.commit} is quarantined: ${names(reverting)} reverted it` };
  const stages = new Map<string, number>();
  for (const [host, v] of state.facts) {
    const c = checkFacts(host, v, nowMs);
    // A host whose facts are not valid is in no stage: it neither holds others back nor lets them go.
    if (c.ok) stages.set(host, stageOf(rollout, c.value.facts) ?? rollout.stages.length);
  }
  const mine = stages.get(me.host) ?? stageOf(rollout, undefined) ?? rollout.stages.length;
  if (mine === 0 || me.first) return { kind: 'go' };
  const label = mine < rollout.stages.length ? stageName(rollout, mine) : 'no stage (after the last)';
  const expectedMs = expectedHoldMs(rollout, mine);
  const earlier = [...stages].filter(([host, s]) => s < mine && host !== me.host).map(([host]) => host).sort();
  if (earlier.length === 0) return { kind: 'hold', expectedMs, reason: `${label}: no host of the stages before it has published its facts, so none has tried commit ${me.commit}` };
  const afterMs = mine < rollout.stages.length ? rollout.stages[mine].afterMs : Math.max(...rollout.stages.map((s) => s.afterMs));
  const notHealthy = earlier.filter((h) => {
    const run = runs.get(h);
    return run === undefined || !healthyAt(run, me.commit);
  });
  if (notHealthy.length > 0) return { kind: 'hold', expectedMs, reason: `${label}: waiting for ${names(notHealthy)} to run commit ${me.commit} healthy` };
  const since = (h: string) => Date.parse(runs.get(h)!.healthy_since ?? runs.get(h)!.ended_at);
  const young = earlier.filter((h) => runs.get(h)!.healthy_since === undefined || nowMs - since(h) < afterMs);
  if (afterMs > 0 && young.length > 0) {
    const left = Math.max(...young.map((h) => (Number.isFinite(since(h)) ? afterMs - (nowMs - since(h)) : afterMs)));
    return { kind: 'hold', expectedMs, reason: `${label}: ${names(young)} must hold commit ${me.commit} healthy for ${formatDuration(afterMs)} (${formatDuration(Math.max(0, left))} more)` };
  }
  return { kind: 'go' };
}

/** The first few host names, escaped for a terminal, and how many more. */
function names(hosts: string[]): string {
  const shown = hosts.slice(0, 5).map((h) => terminalLine(h).slice(0, 64));
  return hosts.length > 5 ? `${shown.join(', ')} and ${hosts.length - 5} more` : shown.join(', ');
}
