// Planning a tree for hosts that are not this one: each host's facts from its snapshot (a file, or
// what it published to the fleet's inventory), the hosts it asks about (`hostfact`) from theirs, and
// nothing asked of any machine. `govern plan` and `govern diff` both plan through here, over the
// same planning phase `govern run` uses.
import path from 'node:path';
import { treeRoot } from '../config/paths.js';
import { byName } from '../facts/inventory.js';
import { readSnapshot, snapshotFiles, SnapshotFacts, SnapshotHostFacts, snapshotHost, type Snapshot } from '../facts/snapshot.js';
import { secretReads, type SecretRead } from '../preview/secret-changes.js';
import { planView, type ResourceView } from '../preview/view.js';
import { PhaseClock } from '../report/timing.js';
import { UserError } from '../shared/errors.js';
import type { FactSources } from '../templates/fact-sources.js';
import { fleetInventory, otherHosts } from './inventory-options.js';
import { planningInputs, planTree, type PlanningInputs, type PlanningOptions } from './planning.js';

export interface HostPlan {
  /** The host's name; `localhost` when planned from this host's own facts. */
  host: string;
  /** Where the facts came from: the snapshot file, or the fleet's inventory. */
  facts?: string;
  /** Every resource in apply order; undefined when planning failed. */
  resources?: ResourceView[];
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

/**
 * The inputs of planning for a preview: as a run's, except that a secret the identity cannot read
 * stands for `<sensitive>` (the planning machine need not hold the hosts' keys).
 */
export function previewInputs(target: string, o: PlanningOptions): PlanningInputs {
  return { ...planningInputs(target, o), unreadableSecrets: 'sensitive' };
}

/** The hosts a preview plans for, and where they read other hosts from when it is not their snapshots' directory. */
export interface PreviewHosts {
  snapshots: Snapshot[];
  /** The fleet's inventory, read once for every host planned (`hostfact`, `hosts`). */
  others?: Omit<FactSources, 'local'>;
}

/**
 * Where a preview's facts come from: `--facts` (every snapshot, or the one of `host`); else, with a
 * fleet configured, the facts the hosts published (the one `host`, or every host when `everyHost`);
 * else undefined: this host's own facts.
 */
export async function previewHosts(o: PlanningOptions & { facts?: string }, host: string | undefined, everyHost: boolean): Promise<PreviewHosts | undefined> {
  if (o.facts !== undefined) return { snapshots: chooseSnapshots(o.facts, host) };
  const inventory = fleetInventory(o);
  if (inventory === undefined || (host === undefined && !everyHost)) {
    if (host !== undefined) throw new UserError('--host needs --facts DIR (the directory of the hosts\' snapshots) or a fleet (--fleet-url) whose inventory has the host');
    return undefined;
  }
  const source = `the fleet's inventory at ${o.fleetUrl}`;
  // A value that is not a string is not a fact govern published: left out, as a missing fact.
  const snapshot = (name: string, facts: Record<string, unknown>): Snapshot => ({
    host: name,
    source,
    values: new Map(Object.entries(facts).filter((e): e is [string, string] => typeof e[1] === 'string')),
  });
  const others = otherHosts(o, inventory);
  if (host !== undefined) {
    await inventory.loadHosts([host]);
    const found = inventory.peekHost(host);
    if (found === null || found === undefined) throw new UserError(`host ${host} is not in ${source} (it never published its facts, or they are older than --inventory-max-age)`);
    if ('error' in found) throw new UserError(`cannot read host ${host} from ${source}: ${found.error}`);
    return { snapshots: [snapshot(host, found.facts)], others };
  }
  await inventory.load();
  const all = inventory.peek();
  if (!all?.ok) throw new UserError(all?.error ?? `cannot read ${source}`);
  if (all.hosts.size === 0) throw new UserError(`${source} has no host (none published its facts within --inventory-max-age)`);
  return { snapshots: [...all.hosts.values()].sort((a, b) => byName(a.name, b.name)).map((h) => snapshot(h.name, h.facts)), others };
}

/** The inputs of planning with the facts of a snapshot rather than this host's. */
export function snapshotInputs(target: string, o: PlanningOptions, snapshot: Snapshot, others?: Omit<FactSources, 'local'>): PlanningInputs {
  const inputs = previewInputs(target, o);
  // Only the facts are replaced: whatever else planning reads from its sources stays as it is.
  const neighbours = snapshot.file !== undefined ? { remote: new SnapshotHostFacts(path.dirname(snapshot.file)) } : others ?? {};
  return { ...inputs, sources: { ...inputs.sources, ...neighbours, local: new SnapshotFacts(snapshot) } };
}

/** Plans the tree for one host; a failure of planning is the plan's errors, not an exception. */
export async function planHost(inputs: PlanningInputs, host: string, facts?: string): Promise<HostPlan> {
  const root = treeRoot(inputs.target) ?? path.dirname(inputs.target);
  try {
    const { plan, selected, data } = await planTree(inputs, new PhaseClock());
    return { host, facts, resources: planView(plan, path.resolve(root), selected), secrets: secretReads(data, path.resolve(root), host) };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { host, facts, errors: e.message.split('\n').map((line) => relativeTo(line, path.resolve(root))) };
  }
}

/** A problem's absolute path inside the tree, shown relative to it. */
function relativeTo(line: string, root: string): string {
  return line.startsWith(root + path.sep) ? line.slice(root.length + 1) : line;
}
