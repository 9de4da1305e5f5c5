// A pulled tree's last good commit and its quarantine (docs/rollout.md). The last good commit is
// the latest whose run succeeded with its health checks, under refs/govern/good of the store's
// repository; a commit a run returned from is quarantined under refs/govern/quarantine/COMMIT (its
// reason in quarantine.json beside the repository), and govern pull refuses it from then on.
// `--revert-on-failure` marks the store (the file revert-on-failure in its root) for the next run.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { formatDuration } from '../shared/duration.js';
import { UserError } from '../shared/errors.js';
import { flockFd, openLockFile } from '../shared/flock.js';
import { checkOut } from './checkout.js';
import { git, gitChecked, type GitContext } from './git.js';
import { CURRENT_REF, switchTo, type Store } from './store.js';

export const GOOD_REF = 'refs/govern/good';
const QUARANTINE_REFS = 'refs/govern/quarantine/';
const MARK_FILE = 'revert-on-failure';
const QUARANTINE_FILE = 'quarantine.json';
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** Reasons kept: a host reverts rarely; the oldest go first past this many. */
const MAX_QUARANTINED = 100;

export const storeGit = (store: Store, env: NodeJS.ProcessEnv = process.env, timeoutMs = 60_000): GitContext => ({ gitDir: store.gitDir, env, timeoutMs });

export function setRevertMark(store: Store, on: boolean): void {
  const file = path.join(store.root, MARK_FILE);
  if (on) writeFileAtomic(file, 'the next govern run of this tree returns to its last good commit if it fails (docs/rollout.md)\n', 0o600);
  else fs.rmSync(file, { force: true });
}

export const revertMarked = (store: Store): boolean => fs.existsSync(path.join(store.root, MARK_FILE));

async function readRef(c: GitContext, ref: string): Promise<string | undefined> {
  const r = await git(c, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  const out = r.stdout.trim();
  return r.code === 0 && COMMIT.test(out) ? out : undefined;
}

export const goodCommit = (c: GitContext): Promise<string | undefined> => readRef(c, GOOD_REF);

export async function markGood(c: GitContext, commit: string): Promise<void> {
  await gitChecked(c, 'update-ref', ['update-ref', GOOD_REF, commit]);
}

/** Why the commit is quarantined on this host (`reverted from it to GOOD: REASON`), or undefined. */
export async function quarantineOf(c: GitContext, commit: string): Promise<string | undefined> {
  if (!COMMIT.test(commit) || (await readRef(c, `${QUARANTINE_REFS}${commit}`)) === undefined) return undefined;
  return reasons(path.dirname(c.gitDir))[commit] ?? 'reverted from it';
}

/** For the fleet-wide quarantine beside this one: whether this host returned from the commit. */
export async function isQuarantined(store: Store, commit: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return (await quarantineOf(storeGit(store, env), commit)) !== undefined;
}

export async function quarantine(c: GitContext, commit: string, why: string): Promise<void> {
  await gitChecked(c, 'update-ref', ['update-ref', `${QUARANTINE_REFS}${commit}`, commit]);
  const root = path.dirname(c.gitDir);
  const kept = Object.entries({ ...reasons(root), [commit]: why }).slice(-MAX_QUARANTINED);
  writeFileAtomic(path.join(root, QUARANTINE_FILE), `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`, 0o600);
}

function reasons(root: string): Record<string, string> {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(root, QUARANTINE_FILE), 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([k, v]) => COMMIT.test(k) && typeof v === 'string'));
  } catch {
    return {};
  }
}

/**
 * DIR back to the good commit, under the store's pull lock (no pull switches DIR meanwhile): its
 * tree checked out again when a pull pruned it, then the symlink renamed over DIR as a pull does.
 */
export async function returnTo(c: GitContext, store: Store, dir: string, good: string): Promise<void> {
  const lock = openLockFile(store.lockFile);
  try {
    if (!(await flockFd(lock, c.timeoutMs))) throw new UserError(`gave up after ${formatDuration(c.timeoutMs)} waiting for a govern pull into ${dir}`);
    if (!fs.existsSync(path.join(store.trees, good))) await checkOut(c, store, good);
    await gitChecked(c, 'update-ref', ['update-ref', CURRENT_REF, good]);
    switchTo(store, dir, good);
  } finally {
    fs.closeSync(lock);
  }
}

/** The return a run made, kept until a newer commit succeeds: every run of `to` until then says so. */
export interface Return {
  from: string;
  to: string;
  reason: string;
}

const RETURN_FILE = 'reverted.json';

export function readReturn(store: Store): Return | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(path.join(store.root, RETURN_FILE), 'utf8')) as Return;
    return COMMIT.test(r.from) && COMMIT.test(r.to) && typeof r.reason === 'string' ? { from: r.from, to: r.to, reason: r.reason } : undefined;
  } catch {
    return undefined;
  }
}

export function writeReturn(store: Store, r: Return | undefined): void {
  const file = path.join(store.root, RETURN_FILE);
  if (r === undefined) fs.rmSync(file, { force: true });
  else writeFileAtomic(file, `${JSON.stringify(r, null, 2)}\n`, 0o644);
}
