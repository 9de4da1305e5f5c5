// Where `govern pull` keeps what it fetched, and how DIR moves from one commit to the next. For
// DIR, a store in VAR_DIR/pull/ holds a bare repository (so each pull fetches only what is new) and
// one checked-out tree per commit, trees/COMMIT. DIR itself is a symlink to the current tree,
// replaced by rename(2): whoever resolves DIR gets the old tree or the new one, never a mix.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { syncDirectory } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';
import { showPulledTree } from '../shared/pulled-paths.js';

export interface Store {
  root: string;
  gitDir: string;
  trees: string;
  lockFile: string;
}

/** The commit DIR is at, in the store's repository (kept from git's gc). */
export const CURRENT_REF = 'refs/govern/current';

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The store of DIR (an absolute path): its name shows DIR's last part, its hash keeps DIRs apart. */
export function storeFor(varDir: string, dir: string): Store {
  const hash = crypto.createHash('sha256').update(dir).digest('hex').slice(0, 16);
  const root = path.join(varDir, 'pull', `${path.basename(dir) || 'root'}-${hash}`);
  return { root, gitDir: path.join(root, 'repo.git'), trees: path.join(root, 'trees'), lockFile: path.join(root, 'pull.lock') };
}

/** Creates the store, root's alone (0700): its trees are what root applies. */
export function makeStore(store: Store): void {
  fs.mkdirSync(path.dirname(store.root), { recursive: true, mode: 0o755 });
  for (const dir of [store.root, store.trees]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** A state tree that `govern pull` made: the tree DIR resolves to now, and its commit. */
export interface PulledTree {
  path: string;
  commit: string;
}

/** The store a pulled tree is in: trees/COMMIT's parent's parent. */
export function storeOfTree(tree: PulledTree): Store {
  const root = path.dirname(path.dirname(tree.path));
  return { root, gitDir: path.join(root, 'repo.git'), trees: path.join(root, 'trees'), lockFile: path.join(root, 'pull.lock') };
}

/** The tree and commit of a path that is a pull's symlink; undefined for anything else. */
export function pulledTree(dir: string): PulledTree | undefined {
  try {
    if (!fs.lstatSync(dir).isSymbolicLink()) return undefined;
    const real = fs.realpathSync(dir);
    const commit = path.basename(real);
    const trees = path.dirname(real);
    if (!COMMIT.test(commit) || path.basename(trees) !== 'trees' || !fs.statSync(path.join(path.dirname(trees), 'repo.git')).isDirectory()) return undefined;
    showPulledTree(real, commit); // its messages name the repository's paths, not the cache's
    return { path: real, commit };
  } catch {
    return undefined;
  }
}

/**
 * The commit DIR is at in this store: undefined when DIR does not exist yet. Anything else in its
 * place (a directory, a link elsewhere) is refused: pull replaces only what it made.
 */
export function currentCommit(store: Store, dir: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const tree = st.isSymbolicLink() ? pulledTree(dir) : undefined;
  if (!tree || path.dirname(tree.path) !== fs.realpathSync(store.trees)) {
    throw new UserError(`${dir} exists and is not a tree govern pull made here: move it away, or pull into another directory`);
  }
  return tree.commit;
}

/** Points DIR at the tree of `commit`: a new symlink beside DIR, renamed over it. */
export function switchTo(store: Store, dir: string, commit: string): void {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const temp = path.join(path.dirname(dir), `.${path.basename(dir)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.link`);
  fs.symlinkSync(path.join(store.trees, commit), temp);
  try {
    fs.renameSync(temp, dir);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    throw e;
  }
  syncDirectory(path.dirname(dir));
}

/** Removes the trees of other commits than `keep` (and `also`), and leftovers of interrupted checkouts. */
export function pruneTrees(store: Store, keep: string, also?: string): void {
  for (const name of fs.readdirSync(store.trees)) {
    if (name !== keep && name !== also) fs.rmSync(path.join(store.trees, name), { recursive: true, force: true });
  }
}
