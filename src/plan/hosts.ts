// Planning a tree for hosts that are not this one: each host's facts from its snapshot (a file, or
// what it published to the fleet's inventory), the hosts it asks about (`hostfact`) from theirs, and
// nothing asked of any machine. `govern plan` and `govern diff` both plan through here, over the
// same planning phase `govern run` uses.
import path from 'node:path';
import { treeRoot } from '../config/paths.js';
import { readSnapshot, snapshotFiles, SnapshotFacts, SnapshotHostFacts, snapshotHost, type Snapshot } from '../facts/snapshot.js';
import { healthView, type HealthView } from '../preview/health-view.js';
import { secretReads, type SecretRead } from '../preview/secret-changes.js';
import { previewView, type ResourceView } from '../preview/view.js';
import { PhaseClock } from '../report/timing.js';
import { UserError } from '../shared/errors.js';
import { pulledPaths } from '../shared/pulled-paths.js';
import type { FactSources } from '../templates/fact-sources.js';
import { planTree } from './plan-tree.js';
import type { PlanSettings } from './settings.js';

export interface HostPreview {
  /** The host's name; `localhost` when planned from this host's own facts. */
  host: string;
  /** Where the facts came from: the snapshot file, or the fleet's inventory. */
  facts?: string;
  /** Every resource in apply order; undefined when planning failed. */
  resources?: ResourceView[];
  /** The tree's health checks, in file then source order; undefined when planning failed. */
  health?: HealthView[];
  /** Every problem planning found, one line each (`file:line: message`), masked. */
  errors?: string[];
  /** The encrypted values the plan read, as written. */
  secrets?: SecretRead[];
}

/** The snapshots to plan for: every one of FILE|DIR, or the one of `host` in it. */
export function chooseSnapshots(given: string, host: string | undefined): Snapshot[] {
  const files = snapshotFiles(given);
  if (host === undefined) return files.map((file) => readSnapshot(file));
  const file = files.find((f) => snapshotHost(f) === host);
  if (!file) throw new UserError(`no facts snapshot for host ${host} in ${given} (there: ${files.map(snapshotHost).join(', ')})`);
  return [readSnapshot(file)];
}

/** The inputs of planning with the facts of a snapshot rather than this host's. */
export function snapshotSettings(inputs: PlanSettings, snapshot: Snapshot, others?: Omit<FactSources, 'local'>): PlanSettings {
  // Only the facts are replaced: whatever else planning reads from its sources stays as it is.
  const neighbours = snapshot.file !== undefined ? { remote: new SnapshotHostFacts(path.dirname(snapshot.file)) } : others ?? {};
  return { ...inputs, sources: { ...inputs.sources, ...neighbours, local: new SnapshotFacts(snapshot) } };
}

/** Plans the tree for one host; a failure of planning is the plan's errors, not an exception. */
export async function planHost(inputs: PlanSettings, host: string, facts?: string): Promise<HostPreview> {
  const root = treeRoot(inputs.target) ?? path.dirname(inputs.target);
  try {
    const { plan, selected, data, health } = await planTree(inputs, new PhaseClock());
    const resolved = path.resolve(root);
    return { host, facts, resources: previewView(plan, resolved, selected), health: health.map((c) => healthView(c, resolved)), secrets: secretReads(data, resolved, host) };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { host, facts, errors: e.message.split('\n').map((line) => relativeTo(pulledPaths(line), path.resolve(root))) };
  }
}

/** A problem's absolute path inside the tree, shown relative to it. */
function relativeTo(line: string, root: string): string {
  return line.startsWith(root + path.sep) ? line.slice(root.length + 1) : line;
}
