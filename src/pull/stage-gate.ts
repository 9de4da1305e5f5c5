// Where `govern pull` asks whether a new commit may be applied yet: a tree with rollout.hcl rolls out
// in stages, decided from the fleet (fleet/stage-gate.ts, given by the command: pull/ sits below
// fleet/). Without a fleet to ask, the tree's rollout.hcl is an error at its line, never ignored.
import { UserError } from '../shared/errors.js';
import { showPulledTree } from '../shared/pulled-paths.js';
import { readRollout } from './rollout-file.js';

/** `expectedMs` of a hold: how long this host's pulls can be held by a rollout that goes well (rollout-file.ts, expectedHoldMs). */
export type GateVerdict = { kind: 'go' } | { kind: 'hold'; reason: string; expectedMs: number } | { kind: 'quarantined'; reason: string };

/** Decides for a tree that has rollout.hcl: `tree` is the commit's checkout, `old` undefined on a first pull. */
export type StageGate = (tree: string, commit: string, old: string | undefined) => Promise<GateVerdict>;

export async function gatePull(gate: StageGate | undefined, tree: string, commit: string, old: string | undefined): Promise<GateVerdict> {
  showPulledTree(tree, commit); // its messages name rollout.hcl as the repository's, not the cache's
  const rollout = readRollout(tree);
  if (rollout === undefined) return { kind: 'go' };
  if (gate === undefined) {
    throw new UserError({ file: rollout.file, line: rollout.line, message: 'a staged rollout needs the fleet: give govern pull --fleet-url (GOVERN_FLEET_URL), or remove rollout.hcl' });
  }
  return gate(tree, commit, old);
}
