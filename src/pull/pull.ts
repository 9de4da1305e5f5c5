// `govern pull REPO DIR`: brings DIR to a commit of REPO with git. Fetch into the store's bare
// repository, check the commit's signature when allowed signers are given, and that it may follow
// DIR's commit (lineage.ts), check it out into a tree of its own, then switch DIR to it (store.ts).
// Until that switch nothing DIR shows has changed, so a failed fetch or a refused commit leaves DIR
// at the last good commit. A commit a run returned from (quarantined, good.ts) is refused.
import fs from 'node:fs';
import path from 'node:path';
import { flockFd, openLockFile } from '../shared/flock.js';
import { tryRunLock } from '../lock/run-lock.js';
import { formatDuration } from '../shared/duration.js';
import { UserError, type Problem } from '../shared/errors.js';
import { verifyCommit } from '../shared/commit-signature.js';
import { foreignRepository, localRepositoryPath } from '../shared/git-safety.js';
import { trustedFile } from '../shared/trust.js';
import { git, gitChecked, GitFailure, type GitContext } from './git.js';
import { checkOut } from './checkout.js';
import { goodCommit, quarantineOf, setRevertMark } from './good.js';
import { checkLineage } from './lineage.js';
import { gatePull, type GateVerdict, type StageGate } from './stage-gate.js';
import { CURRENT_REF, currentCommit, makeStore, pruneTrees, storeFor, switchTo, type Store } from './store.js';

export interface PullRequest {
  repo: string;
  dir: string;
  /** A branch or tag of REPO; undefined for the remote's default branch (its HEAD). */
  ref?: string;
  allowedSigners?: string;
  /** A commit every accepted commit must descend from: what a host's first pull trusts. */
  anchor?: string;
  /** Accept a commit that does not descend from DIR's (it is logged as a rollback). */
  allowRollback: boolean;
  /** With allowed signers and a ref: accept a commit whatever refs its Govern-Ref trailers name. */
  anyRef: boolean;
  /** Mark the tree: its next run returns to the last good commit if this one fails (docs/rollout.md). */
  revertOnFailure?: boolean;
  varDir: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Asked when the commit's tree has rollout.hcl (stage-gate.ts); without one, such a tree is refused. */
  gate?: StageGate;
}

export interface PullResult {
  dir: string;
  /** Undefined on the first pull. */
  old?: string;
  commit: string;
  /** Who signed it, when signatures are checked. */
  signer?: string;
  /** DIR went to a commit that does not descend from its old one (--allow-rollback). */
  rolledBack: boolean;
  /** The host's last good commit (its run and health checks succeeded), when there is one. */
  good?: string;
  /** The fetched commit waits for the earlier stages of the rollout: DIR stays at `commit`. */
  held?: { commit: string; reason: string; expectedMs: number };
}

/**
 * Why a pull left DIR as it was: `failed` (git could not fetch or check out), `refused` (the commit
 * is not trusted here), `rollback` (it would take DIR back). `commit` is the one refused, when known.
 */
export class PullFailure extends UserError {
  constructor(
    readonly outcome: 'failed' | 'refused' | 'rollback',
    problems: string | Problem[],
    readonly commit?: string,
    /** The commit DIR stays at, when it exists. */
    readonly current?: string,
  ) {
    super(problems);
  }
}

/** Where the fetched commit is kept in the store's repository. */
const PULLED_REF = 'refs/govern/pulled';

export async function pull(request: PullRequest): Promise<PullResult> {
  request = checkRequest(request);
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
    if (e instanceof GitFailure) throw new PullFailure('failed', `cannot fetch ${request.ref ?? 'the default branch'} from ${request.repo}: ${e.message}; ${stays}`, undefined, old);
    throw e;
  }
  let signer: string | undefined;
  if (request.allowedSigners !== undefined) {
    const verdict = await verifyCommit((args, config) => git(c, args, { config }), commit, request.allowedSigners, (what, result) => new GitFailure(what, result, c.timeoutMs));
    if (!verdict.ok) throw new PullFailure('refused', `refusing commit ${commit} of ${request.repo}: ${verdict.reason} (allowed signers: ${request.allowedSigners}); ${stays}`, commit, old);
    signer = verdict.signer;
  }
  // The environment is bound by what the signer wrote: without signatures anyone can write a trailer.
  const boundRef = request.allowedSigners !== undefined && !request.anyRef ? request.ref : undefined;
  const lineage = await checkLineage(c, { old, commit, anchor: request.anchor, ref: boundRef, allowRollback: request.allowRollback });
  if (!lineage.ok) throw new PullFailure(lineage.kind, `refusing commit ${commit} of ${request.repo}: ${lineage.reason}; ${stays}`, commit, old);
  const quarantined = await quarantineOf(c, commit);
  if (quarantined !== undefined) throw new PullFailure('refused', `refusing commit ${commit} of ${request.repo}: it is quarantined on this host, ${quarantined} (a newer commit that descends from it is taken); ${stays}`, commit, old);
  try {
    if (!fs.existsSync(path.join(store.trees, commit))) await checkOut(c, store, commit);
  } catch (e) {
    if (e instanceof GitFailure) throw new PullFailure('failed', `cannot check out ${commit}: ${e.message}`, commit);
    throw e;
  }
  if (old !== commit) {
    const verdict = await stageVerdict(request.gate, path.join(store.trees, commit), commit, old, stays);
    if (verdict.kind === 'quarantined') throw new PullFailure('refused', `refusing commit ${commit} of ${request.repo}: ${verdict.reason}; ${stays}`, commit, old);
    if (verdict.kind === 'hold' && old !== undefined) return { dir, old, commit: old, rolledBack: false, held: { commit, reason: verdict.reason, expectedMs: verdict.expectedMs } };
  }
  try {
    await gitChecked(c, 'update-ref', ['update-ref', CURRENT_REF, commit]);
  } catch (e) {
    if (e instanceof GitFailure) throw new PullFailure('failed', `cannot record ${commit} in ${store.gitDir}: ${e.message}; ${stays}`, commit, old);
    throw e;
  }
  if (old !== commit) switchTo(store, dir, commit);
  setRevertMark(store, request.revertOnFailure === true);
  const good = await goodCommit(c);
  // Old trees go only while no run is under way: a run resolves DIR once it holds the run lock,
  // and reads the tree it resolved until it ends.
  const runLock = await tryRunLock();
  if (runLock) {
    try {
      // Marked, the last good commit's tree stays: a return to it needs no checkout (good.ts).
      pruneTrees(store, commit, request.revertOnFailure ? good : undefined);
    } finally {
      runLock.release();
    }
  }
  return { dir, old, commit, signer, rolledBack: lineage.rolledBack, ...(good ? { good } : {}) };
}

/** The stage gate's verdict; a mistake of rollout.hcl, or a fleet that cannot be read, leaves DIR as it is. */
async function stageVerdict(gate: StageGate | undefined, tree: string, commit: string, old: string | undefined, stays: string): Promise<GateVerdict> {
  try {
    return await gatePull(gate, tree, commit, old);
  } catch (e) {
    if (e instanceof UserError) throw new PullFailure('failed', [...e.problems, { message: stays }], commit, old);
    throw e;
  }
}

/**
 * Values that reach git's command line: an option where a URL or ref should be is refused. The
 * allowed signers file decides what root applies, so it is held to the rule of the programs govern
 * runs (shared/trust.ts); the request goes on with the path that was checked. A REPO on this host
 * that another user owns is refused: git would run what its configuration names (shared/git-safety.ts).
 */
function checkRequest(r: PullRequest): PullRequest {
  const problems: string[] = [];
  if (r.repo === '' || r.repo.startsWith('-')) problems.push(`REPO must be a repository URL or path, not "${r.repo}"`);
  const local = r.repo === '' ? undefined : localRepositoryPath(r.repo);
  const foreign = local !== undefined ? foreignRepository(local, process.getuid?.() ?? 0, 'root') : undefined;
  if (foreign !== undefined) problems.push(`REPO ${r.repo}: ${foreign}; serve it over ssh:// or https://, or let root own it`);
  if (r.ref !== undefined && !/^(?!-)(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._/-]+(?<![/.])$/.test(r.ref)) {
    problems.push(`--ref must be a branch or tag name (letters, digits, . _ / -), not "${r.ref}"`);
  }
  if (r.anchor !== undefined && !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(r.anchor)) problems.push(`--anchor must be a whole commit id (40 or 64 hexadecimal digits), not "${r.anchor}"`);
  let allowedSigners = r.allowedSigners;
  let untrusted = false;
  if (allowedSigners !== undefined) {
    const trusted = trustedFile(allowedSigners, 'the allowed signers file');
    if ('refused' in trusted) problems.push(`--allowed-signers: ${trusted.refused}`);
    else allowedSigners = trusted.path;
    untrusted = 'refused' in trusted;
  }
  if (problems.length > 0) throw new PullFailure(untrusted || foreign !== undefined ? 'refused' : 'failed', problems.map((message) => ({ message })));
  return { ...r, allowedSigners };
}
