// modules.lock at a tree's root: for each module a fetch vendored, where it came from, the commit
// it took and the hash of the files it wrote (tree-hash.ts). It is what makes a fetch repeatable (a
// ref that now names another commit is refused) and a vendored module checkable offline (plan and
// run refuse files that no longer match). JSON, sorted, one module per entry, for readable diffs.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';
import { readSourceFile } from '../shared/source-file.js';

export const LOCK_FILE = 'modules.lock';
/** Where a tree's modules are, its own and the vendored ones alike. */
export const MODULES_DIR = 'modules';

export interface LockedModule {
  /** The repository, or the directory for a path source. */
  source: string;
  ref?: string;
  /** The commit vendored (git sources). */
  commit?: string;
  hash: string;
}

export type ModuleLock = Map<string, LockedModule>;

const HEX40 = /^[0-9a-f]{40}$/;

export function readLock(root: string): ModuleLock {
  const file = path.join(root, LOCK_FILE);
  const lock: ModuleLock = new Map();
  if (!fs.existsSync(file)) return lock;
  let doc: unknown;
  try {
    doc = JSON.parse(readSourceFile(file, root));
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${file}: not JSON (${(e as Error).message}): it is written by govern modules fetch; restore it from version control, or remove it and fetch again`);
  }
  const modules = (doc as { modules?: unknown })?.modules;
  if (typeof doc !== 'object' || doc === null || (doc as { version?: unknown }).version !== 1 || typeof modules !== 'object' || modules === null) {
    throw new UserError(`${file}: not a modules.lock of version 1 ({"version": 1, "modules": {...}})`);
  }
  for (const [name, entry] of Object.entries(modules as Record<string, unknown>)) {
    const e = entry as Partial<LockedModule>;
    const ok = typeof e?.source === 'string' && typeof e.hash === 'string' && /^sha256:[0-9a-f]{64}$/.test(e.hash) && (e.commit === undefined || (typeof e.commit === 'string' && HEX40.test(e.commit)));
    if (!ok) throw new UserError(`${file}: the entry of module "${name}" is damaged (source, hash and commit as govern modules fetch writes them)`);
    lock.set(name, { source: e.source as string, ...(typeof e.ref === 'string' ? { ref: e.ref } : {}), ...(e.commit ? { commit: e.commit } : {}), hash: e.hash as string });
  }
  return lock;
}

export function writeLock(root: string, lock: ModuleLock): void {
  const modules: Record<string, LockedModule> = {};
  for (const name of [...lock.keys()].sort()) modules[name] = lock.get(name) as LockedModule;
  writeFileAtomic(path.join(root, LOCK_FILE), `${JSON.stringify({ version: 1, modules }, null, 2)}\n`);
}
