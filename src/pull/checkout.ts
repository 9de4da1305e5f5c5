// A commit's files checked out into the store's trees/COMMIT, for govern pull and for the return to
// the last good commit (good.ts).
import fs from 'node:fs';
import path from 'node:path';
import { syncDirectory } from '../shared/atomic-file.js';
import { gitChecked, type GitContext } from './git.js';
import type { Store } from './store.js';

/** The commit's files into trees/COMMIT: written under a temporary name, renamed when complete. */
export async function checkOut(c: GitContext, store: Store, commit: string): Promise<void> {
  const temp = path.join(store.trees, `.${commit}.${process.pid}.tmp`);
  const index = path.join(store.root, `index.${process.pid}.tmp`);
  fs.rmSync(temp, { recursive: true, force: true });
  fs.mkdirSync(temp, { mode: 0o755 });
  try {
    const env = { GIT_INDEX_FILE: index };
    await gitChecked(c, 'read-tree', ['read-tree', commit], { env });
    await gitChecked(c, 'checkout-index', [`--work-tree=${temp}`, 'checkout-index', '--all'], { env });
    fs.renameSync(temp, path.join(store.trees, commit));
    syncDirectory(store.trees);
  } catch (e) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw e;
  } finally {
    fs.rmSync(index, { force: true });
  }
}

