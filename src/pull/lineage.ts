// Whether a fetched commit may follow the one DIR is at, beyond its signature: a signature says who
// wrote a commit, not when nor for which hosts, so an old signed commit (a rollback, or one signed
// by a key removed since) and a commit signed for another environment are refused here. What is
// checked, in order: the anchor (the commit must descend from it, so a first pull cannot be taken
// back before it), the environment (the signed message names the ref pulled, in a Govern-Ref
// trailer), and the lineage (the commit descends from the one DIR is at).
import { git, GitFailure, type GitContext } from './git.js';

export const REF_TRAILER = 'Govern-Ref';

export interface LineageRequest {
  /** The commit DIR is at; undefined on the first pull. */
  old?: string;
  commit: string;
  /** A commit every accepted commit must descend from (or be). */
  anchor?: string;
  /** The ref the signed message must name; undefined when not checked. */
  ref?: string;
  allowRollback: boolean;
}

/** Why a commit is refused: `rollback` when it would take the tree back (before DIR's commit or the anchor), `refused` otherwise. */
export type Lineage = { ok: true; rolledBack: boolean } | { ok: false; kind: 'rollback' | 'refused'; reason: string };

export async function checkLineage(c: GitContext, r: LineageRequest): Promise<Lineage> {
  if (r.anchor !== undefined && r.anchor !== r.commit) {
    const known = await hasCommit(c, r.anchor);
    if (!known || !(await isAncestor(c, r.anchor, r.commit))) {
      return { ok: false, kind: 'rollback', reason: `it does not descend from the anchor commit ${r.anchor}${known ? '' : ' (not in the fetched history)'}` };
    }
  }
  if (r.ref !== undefined) {
    const named = await refsNamed(c, r.commit);
    if (!named.some((n) => sameRef(n, r.ref!))) {
      const says = named.length === 0 ? `has no ${REF_TRAILER} trailer` : `names ${named.map((n) => `"${n}"`).join(', ')}`;
      return { ok: false, kind: 'refused', reason: `its signed message ${says}, not "${REF_TRAILER}: ${r.ref}" (a commit is accepted only on the refs its signer named)` };
    }
  }
  if (r.old === undefined || r.old === r.commit) return { ok: true, rolledBack: false };
  let why: string;
  if (!(await hasCommit(c, r.old))) why = `the current commit ${r.old} is not in the store's repository, so nothing shows that it descends from it`;
  else if (await isAncestor(c, r.old, r.commit)) return { ok: true, rolledBack: false };
  else why = (await isAncestor(c, r.commit, r.old)) ? `it is older than the current commit ${r.old} (a rollback)` : `it does not descend from the current commit ${r.old} (the history was rewritten)`;
  if (r.allowRollback) return { ok: true, rolledBack: true };
  return { ok: false, kind: 'rollback', reason: `${why}; --allow-rollback takes it` };
}

/** The values of the commit's Govern-Ref trailers (git matches the key whatever its case). */
async function refsNamed(c: GitContext, commit: string): Promise<string[]> {
  const shown = await git(c, ['log', '-1', `--format=%(trailers:key=${REF_TRAILER},valueonly,separator=%x00)`, commit]);
  if (shown.code !== 0) throw new GitFailure('log', shown, c.timeoutMs);
  return shown.stdout
    .trim()
    .split('\0')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** `production` and `refs/heads/production` name the same branch. */
function sameRef(a: string, b: string): boolean {
  const short = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '');
  return short(a) === short(b);
}

async function hasCommit(c: GitContext, commit: string): Promise<boolean> {
  return (await git(c, ['cat-file', '-e', `${commit}^{commit}`])).code === 0;
}

/** `git merge-base --is-ancestor`: exit 0 yes, 1 no, anything else a failure. */
async function isAncestor(c: GitContext, ancestor: string, commit: string): Promise<boolean> {
  const result = await git(c, ['merge-base', '--is-ancestor', ancestor, commit]);
  if (result.code === 0 || result.code === 1) return result.code === 0;
  throw new GitFailure('merge-base', result, c.timeoutMs);
}
