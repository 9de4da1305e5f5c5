// What planning (plan, diff, run, check) asks of a vendored module before it reads it: its files
// still match the hash modules.lock recorded. An edit by hand in modules/NAME would otherwise be
// lost at the next fetch, and a reviewer of the tree could not tell vendored code from changed code.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import { LOCK_FILE, MODULES_DIR, readLock, type ModuleLock } from './lock-file.js';
import { MANIFEST_FILE, readManifest } from './manifest.js';
import { hashTree } from './tree-hash.js';

/** Read once per process and tree: planning asks for each module instantiated. */
const locks = new Map<string, ModuleLock>();

function lockOf(root: string): ModuleLock {
  let lock = locks.get(root);
  if (lock === undefined) {
    lock = fs.existsSync(path.join(root, LOCK_FILE)) ? readLock(root) : new Map();
    locks.set(root, lock);
  }
  return lock;
}

/** Throws when modules/NAME was vendored and its files changed since. */
export function checkVendored(root: string, name: string): void {
  const locked = lockOf(root).get(name);
  if (locked === undefined) return;
  const dir = path.join(root, MODULES_DIR, name);
  const { hash, odd } = hashTree(dir);
  if (hash === locked.hash) return;
  const from = locked.commit !== undefined ? `${locked.source} at ${locked.ref} (commit ${locked.commit.slice(0, 12)})` : locked.source;
  throw new UserError({
    file: dir,
    message:
      `its files no longer match ${LOCK_FILE} (vendored from ${from}${odd.length > 0 ? `; it now holds ${odd.map((o) => JSON.stringify(o)).join(', ')}, which is no file` : ''}): ` +
      `run \`govern modules fetch\` to put the vendored files back, or make it the tree's own module by removing module_source "${name}" from ${MANIFEST_FILE} and its entry from ${LOCK_FILE}`,
  });
}

/** Why a module the tree has no directory for is missing, when modules.hcl declares it. */
export function notVendored(root: string, name: string): string | undefined {
  try {
    if (!readManifest(path.join(root, MANIFEST_FILE), root).some((d) => d.name === name)) return undefined;
  } catch {
    return undefined;
  }
  return `"${name}" is declared in ${MANIFEST_FILE} but not vendored yet: run \`govern modules fetch\``;
}
