// The resources the last real run of each state tree managed (VAR_DIR/managed.json), so that a
// resource that disappears from the tree is not silently left behind: the next runs report it as
// no longer managed until the tree removes it (it comes back with `ensure = "absent"`) or a run is
// told to forget it (`govern run --forget RREF`). govern never removes it on its own.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';

export const MANAGED_FILE = 'managed.json';

export interface TreeManaged {
  /** RREFs the tree declared at its last real run, `ensure = "absent"` ones left out. */
  managed: string[];
  /** RREFs that left the tree and are not yet removed or forgotten. */
  dropped: string[];
}

/** By state tree, as given to govern run. */
export type ManagedRecord = Record<string, TreeManaged>;

export function readManaged(varDir: string): ManagedRecord {
  const file = path.join(varDir, MANAGED_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UserError(`cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as ManagedRecord;
    for (const tree of Object.values(parsed)) if (!Array.isArray(tree.managed) || !Array.isArray(tree.dropped)) throw new Error('not a list of managed resources');
    return parsed;
  } catch (e) {
    throw new UserError(`${file}: ${(e as Error).message} (remove it to start the list again)`);
  }
}

export interface DroppedAnswer {
  next: TreeManaged;
  /** --forget RREFs that were not dropped: nothing to forget. */
  unknown: string[];
}

/**
 * What the tree manages now, and what it dropped: every RREF it managed or had dropped before that it
 * no longer declares (an absent one is removed by this run, so no longer dropped), less the forgotten.
 */
export function droppedResources(previous: TreeManaged | undefined, declared: Map<string, boolean>, forget: readonly string[]): DroppedAnswer {
  const managed = [...declared].filter(([, absent]) => !absent).map(([ref]) => ref);
  const earlier = new Set([...(previous?.managed ?? []), ...(previous?.dropped ?? [])]);
  const dropped = [...earlier].filter((ref) => !declared.has(ref) && !forget.includes(ref)).sort();
  const unknown = forget.filter((ref) => !earlier.has(ref) || declared.has(ref));
  return { next: { managed: managed.sort(), dropped }, unknown };
}

/**
 * Replaced atomically; readable by root only (it names what the host holds). A list that is already
 * what it would become is left alone: a run that changes nothing then writes and syncs no file for it.
 */
export function writeManaged(varDir: string, record: ManagedRecord): void {
  const file = path.join(varDir, MANAGED_FILE);
  const text = JSON.stringify(record, null, 2) + '\n';
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    // none yet, or unreadable: written below
  }
  try {
    fs.mkdirSync(varDir, { recursive: true, mode: 0o755 });
    writeFileAtomic(file, text, 0o600);
  } catch (e) {
    throw new UserError(`cannot record the managed resources in ${file}: ${(e as Error).message}`);
  }
}
