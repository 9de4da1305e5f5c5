// `govern pull REPO DIR`: brings DIR to a commit of REPO with git. Fetch into the store's bare
// repository, check the commit's signature when allowed signers are given, check it out into a tree
// of its own, then switch DIR to it (store.ts). Until that switch nothing DIR shows has changed, so
// a failed fetch or a refused commit leaves DIR at the last good commit.
import fs from 'node:fs';
import path from 'node:path';
import { flockFd, openLockFile } from '../lock/flock.js';
import { tryRunLock } from '../lock/run-lock.js';
import { syncDirectory } from '../shared/atomic-file.js';
import { formatDuration } from '../shared/duration.js';
import { UserError } from '../shared/errors.js';
import { gitChecked, GitFailure, type GitContext } from './git.js';
import { verifyCommit } from './signature.js';
import { currentCommit, makeStore, pruneTrees, storeFor, switchTo, type Store } from './store.js';

export interface PullRequest {
  repo: string;
  dir: string;
  /** A branch or tag of REPO; undefined for the remote's default branch (its HEAD). */
  ref?: string;
  allowedSigners?: string;
  varDir: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

export interface PullResult {
  dir: string;
  /** Undefined on the first pull. */
  old?: string;
  commit: string;
  /** Who signed it, when signatures are checked. */
  signer?: string;
}

/** Where the fetched commit is kept in the store's repository. */
const PULLED_REF = 'refs/govern/pulled';

export async function pull(request: PullRequest): Promise<PullResult> {
  checkRequest(request);
  const dir = path.resolve(request.dir);
  const store = storeFor(request.varDir, dir);
  makeStore(store);
  const lock = openLockFile(store.lockFile);
  try {
    if (!(await flockFd(lock, request.timeoutMs))) throw new UserError(`gave up after ${formatDuration(request.timeoutMs)} waiting for another govern pull into ${dir}`);
    return await pullLocked(request, dir, store);
  } finally {
    fs.closeSync(lock);
  }
}

async function pullLocked(request: PullRequest, dir: string, store: Store): Promise<PullResult> {
  const old = currentCommit(store, dir);
  const stays = `${dir} stays ${old ? `at ${old}` : 'absent'}`;
  const c: GitContext = { gitDir: store.gitDir, env: request.env, timeoutMs: request.timeoutMs };
  const ref = request.ref ?? 'HEAD';
  let commit: string;
  try {
    if (!fs.existsSync(path.join(store.gitDir, 'HEAD'))) await gitChecked(c, 'init', ['init', '--quiet', '--bare']);
    await gitChecked(c, 'fetch', ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', request.repo, `+${ref}:${PULLED_REF}`]);
    commit = (await gitChecked(c, 'rev-parse', ['rev-parse', '--verify', '--quiet', `${PULLED_REF}^{commit}`])).trim();
  } catch (e) {
    if (e instanceof GitFailure) throw new UserError(`cannot fetch ${request.ref ?? "the default branch"} from ${request.repo}: ${e.message}; ${stays}`);
    throw e;
  }
  let signer: string | undefined;
  if (request.allowedSigners !== undefined) {
    const verdict = await verifyCommit(c, commit, request.allowedSigners);
    if (!verdict.ok) throw new UserError(`refusing commit ${commit} of ${request.repo}: ${verdict.reason} (allowed signers: ${request.allowedSigners}); ${stays}`);
    signer = verdict.signer;
  }
  if (!fs.existsSync(path.join(store.trees, commit))) await checkOut(c, store, commit);
  if (old !== commit) switchTo(store, dir, commit);
  // Old trees go only while no run is under way: a run resolves DIR once it holds the run lock,
  // and reads the tree it resolved until it ends.
  const runLock = await tryRunLock();
  if (runLock) {
    try {
      pruneTrees(store, commit);
    } finally {
      runLock.release();
    }
  }
  return { dir, old, commit, signer };
}

/** The commit's files into trees/COMMIT: written under a temporary name, renamed when complete. */
async function checkOut(c: GitContext, store: Store, commit: string): Promise<void> {
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
    if (e instanceof GitFailure) throw new UserError(`cannot check out ${commit}: ${e.message}`);
    throw e;
  } finally {
    fs.rmSync(index, { force: true });
  }
}

/** Values that reach git's command line: an option where a URL or ref should be is refused. */
function checkRequest(r: PullRequest): void {
  const problems: string[] = [];
  if (r.repo === '' || r.repo.startsWith('-')) problems.push(`REPO must be a repository URL or path, not "${r.repo}"`);
  if (r.ref !== undefined && !/^(?!-)(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._/-]+(?<![/.])$/.test(r.ref)) {
    problems.push(`--ref must be a branch or tag name (letters, digits, . _ / -), not "${r.ref}"`);
  }
  if (r.allowedSigners !== undefined) {
    try {
      if (!fs.statSync(r.allowedSigners).isFile()) problems.push(`--allowed-signers ${r.allowedSigners} is not a file`);
    } catch (e) {
      problems.push(`--allowed-signers ${r.allowedSigners}: ${(e as Error).message}`);
    }
  }
  if (problems.length > 0) throw new UserError(problems.map((message) => ({ message })));
}
