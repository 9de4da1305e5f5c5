// Planning a tree for hosts that are not this one: each host's facts from its snapshot, the hosts
// it asks about (`hostfact`) from theirs, and nothing asked of any machine. `govern plan` and
// `govern diff` both plan through here, over the same planning phase `govern run` uses.
import path from 'node:path';
import { treeRoot } from '../config/paths.js';
import { readSnapshot, snapshotFiles, SnapshotFacts, SnapshotHostFacts, snapshotHost, type Snapshot } from '../facts/snapshot.js';
import { planView, type ResourceView } from '../preview/view.js';
import { PhaseClock } from '../report/timing.js';
import { UserError } from '../shared/errors.js';
import { planningInputs, planTree, type PlanningInputs, type PlanningOptions } from './planning.js';

export interface HostPlan {
  /** The host's name; `localhost` when planned from this host's own facts. */
  host: string;
  /** The snapshot the facts came from. */
  facts?: string;
  /** Every resource in apply order; undefined when planning failed. */
  resources?: ResourceView[];
  /** Every problem planning found, one line each (`file:line: message`), masked. */
  errors?: string[];
}

/** The snapshots to plan for: every one of FILE|DIR, or the one of `host` in it. */
export function chooseSnapshots(given: string, host: string | undefined): Snapshot[] {
  const files = snapshotFiles(given);
  if (host === undefined) return files.map((file) => readSnapshot(file));
  const file = files.find((f) => snapshotHost(f) === host);
  if (!file) throw new UserError(`no facts snapshot for host ${host} in ${given} (there: ${files.map(snapshotHost).join(', ')})`);
  return [readSnapshot(file)];
}

/**
 * The inputs of planning for a preview: as a run's, except that a secret the identity cannot read
 * stands for `<sensitive>` (the planning machine need not hold the hosts' keys).
 */
export function previewInputs(target: string, o: PlanningOptions): PlanningInputs {
  return { ...planningInputs(target, o), unreadableSecrets: 'sensitive' };
}

/** The inputs of planning with the facts of a snapshot rather than this host's. */
export function snapshotInputs(target: string, o: PlanningOptions, snapshot: Snapshot): PlanningInputs {
  const inputs = previewInputs(target, o);
  // Only the facts are replaced: whatever else planning reads from its sources stays as it is.
  return { ...inputs, sources: { ...inputs.sources, local: new SnapshotFacts(snapshot), remote: new SnapshotHostFacts(path.dirname(snapshot.file)) } };
}

/** Plans the tree for one host; a failure of planning is the plan's errors, not an exception. */
export async function planHost(inputs: PlanningInputs, host: string, facts?: string): Promise<HostPlan> {
  const root = treeRoot(inputs.target) ?? path.dirname(inputs.target);
  try {
    const { plan, selected } = await planTree(inputs, new PhaseClock());
    return { host, facts, resources: planView(plan, path.resolve(root), selected) };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { host, facts, errors: e.message.split('\n').map((line) => relativeTo(line, path.resolve(root))) };
  }
}

/** A problem's absolute path inside the tree, shown relative to it. */
function relativeTo(line: string, root: string): string {
  return line.startsWith(root + path.sep) ? line.slice(root.length + 1) : line;
}
