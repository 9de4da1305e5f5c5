// What govern run does with the list of managed resources: the resources the tree no longer
// declares since the last real run, reported by this run, and the list kept after a real run.
import { droppedResources, readManaged, writeManaged, type ManagedRecord } from '../record/managed.js';
import { UserError } from '../shared/errors.js';
import type { Resource } from '../state/resource.js';
import { warn } from '../output/writers.js';

export interface ManagedTracking {
  /** Resources that left the tree and are neither removed nor forgotten, sorted. */
  dropped: string[];
  /** Keeps the list for the next run (after a run that is not --noop). */
  save(): void;
}

/** A list that cannot be read is left as it is, and this run neither reports from it nor replaces it. */
export function trackManaged(varDir: string, tree: string, resources: readonly Resource[], forget: readonly string[]): ManagedTracking {
  let record: ManagedRecord;
  try {
    record = readManaged(varDir);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    warn(`${e.message}; resources no longer managed are not tracked by this run`);
    return { dropped: [], save: () => undefined };
  }
  const declared = new Map(resources.map((r) => [r.ref, r.attrs.ensure === 'absent']));
  const { next, unknown } = droppedResources(record[tree], declared, forget);
  for (const ref of unknown) warn(`--forget ${ref}: not a resource this tree no longer manages; nothing to forget`);
  return {
    dropped: next.dropped,
    save: () => writeManaged(varDir, { ...record, [tree]: next }),
  };
}
