// git itself, run as the checkout's user when one is given: what the checkout is, what the revision
// means, clone, fetch and checkout. Every command as argv; a value never reaches a shell. git works
// only in a checkout and a source repository the user it runs as owns, and every call has hooks and
// the configuration that runs programs off (shared/git-safety.ts).
import fs from 'node:fs';
import { act, query, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { passwdEntryOf } from '../lib/accounts/database.js';
import { verifyCommit, type GitIn, type Verdict } from '../../shared/commit-signature.js';
import { foreignRepository, GIT_SAFE_ENV, gitSafeArgs, localRepositoryPath } from '../../shared/git-safety.js';
import type { GitCurrent } from './decide.js';
import { isCommitId, isFullCommitId, type GitProperties } from './properties.js';

const TIMEOUT_MS = 600_000;

/** Looks up the user's home, so git reads that user's configuration, not root's. */
export async function gitProviderForUser(context: ProviderContext, p: GitProperties): Promise<GitProvider> {
  if (p.user === undefined) return gitProvider(context, p);
  const entry = await passwdEntryOf(context, p.user);
  if (entry === undefined) throw new UserError(`no user ${p.user}`);
  return gitProvider(context, p, entry.home, entry.uid);
}

/** What the git runner asks of git. */
export interface GitProvider {
  /** Refuses a checkout, or a source on this host, that another user than git's owns: git would run its code. */
  refuseForeign(): void;
  current(): Promise<GitCurrent>;
  /** `checkout = false`: the clone's files are not checked out yet (its commit is to be verified first). */
  clone(checkout?: boolean): Promise<void>;
  /** Fetches when the revision is not known here (or is followed); the commit it then names. */
  fetch(): Promise<string>;
  checkout(sha: string, force?: boolean): Promise<void>;
  /** Whether a commit is signed by a key of the allowed signers file (the rule of govern pull). */
  verify(commit: string, allowedSigners: string): Promise<Verdict>;
  /** Whether the commit's object is here (fetched), so that it can be verified without fetching. */
  has(commit: string): Promise<boolean>;
  head(): Promise<string>;
}

/** uid: whom git runs as: the checkout and a local source must be this uid's. */
export function gitProvider(context: ProviderContext, p: GitProperties, home?: string, uid: number = process.getuid?.() ?? 0): GitProvider {
  function argv(args: string[], inDir = true, config: Record<string, string> = {}): string[] {
    const git = ['git', ...gitSafeArgs({ 'advice.detachedHead': 'false', ...config }), ...(inDir ? ['-C', p.dir] : []), ...args];
    return p.user !== undefined ? ['runuser', '-u', p.user, '--', ...git] : git;
  }

  function env(): Record<string, string> {
    return { GIT_TERMINAL_PROMPT: '0', ...GIT_SAFE_ENV, ...(home !== undefined ? { HOME: home } : {}) };
  }

  /** The command's output, trimmed (raw: as printed); undefined when it fails. */
  async function out(args: string[], raw = false): Promise<string | undefined> {
    const r = await query(context, argv(args), { env: env(), timeoutMs: TIMEOUT_MS });
    return r.code === 0 ? (raw ? r.stdout : r.stdout.trim()) : undefined;
  }

  async function run(args: string[], inDir = true): Promise<void> {
    await act(context, argv(args, inDir), { env: env(), timeoutMs: TIMEOUT_MS });
  }

  /**
   * The commit a revision names here: a remote branch, a tag, or a commit id. A whole commit id is
   * that object only: a branch or tag given that name never stands in for it.
   */
  async function resolveLocal(revision: string): Promise<string | undefined> {
    const names = isFullCommitId(revision) ? [revision] : [`refs/remotes/origin/${revision}`, `refs/tags/${revision}`, revision];
    for (const ref of names) {
      const sha = await out(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
      if (sha) return sha;
    }
    return undefined;
  }

  /** The commit the remote's branch or tag (or HEAD) points at now, without fetching. */
  async function resolveRemote(revision: string | undefined): Promise<string | undefined> {
    const refs = revision === undefined ? ['HEAD'] : [`refs/heads/${revision}`, `refs/tags/${revision}^{}`, `refs/tags/${revision}`];
    const text = await out(['ls-remote', '--', p.source, ...refs]);
    if (text === undefined) throw new UserError(`cannot list ${p.source} (git ls-remote failed)`);
    const lines = text.split('\n').map((l) => l.split('\t'));
    for (const ref of refs) {
      const found = lines.find(([, name]) => name === ref);
      if (found) return found[0];
    }
    return undefined;
  }

  const provider: GitProvider = {
    /** Refuses a checkout, or a source on this host, that another user than git's owns: git would run its code. */
    refuseForeign(): void {
      const who = p.user ?? (uid === 0 ? 'root' : `uid ${uid}`);
      const source = localRepositoryPath(p.source);
      for (const [dir, what] of [[p.dir, 'checkout'], [source, 'source']] as const) {
        const problem = dir !== undefined ? foreignRepository(dir, uid, who) : undefined;
        if (problem !== undefined) throw new UserError(`refusing the ${what} ${dir}: ${problem}${what === 'checkout' ? ` (user = "..." runs git as the checkout's owner)` : ''}`);
      }
    },

    async current(): Promise<GitCurrent> {
      const st = fs.lstatSync(p.dir, { throwIfNoEntry: false });
      if (st === undefined) return { dir: 'absent', changes: [] };
      if (!st.isDirectory()) return { dir: 'other', changes: [] };
      if (!fs.existsSync(`${p.dir}/.git`)) return { dir: fs.readdirSync(p.dir).length === 0 ? 'empty' : 'other', changes: [] };
      const origin = await out(['config', '--get', 'remote.origin.url']);
      const head = await out(['rev-parse', '--verify', '--quiet', 'HEAD']);
      const status = (await out(['status', '--porcelain', '--untracked-files=no'], true)) ?? '';
      const changes = status.split('\n').filter((l) => l !== '').map((l) => l.slice(3));
      const rev = p.revision;
      let wanted: string | undefined;
      if (origin === p.source) {
        const followed = p.ensure === 'latest' && (rev === undefined || !isCommitId(rev));
        wanted = followed ? await resolveRemote(rev) : rev !== undefined ? await resolveLocal(rev) : head;
      }
      return { dir: 'checkout', origin, head, changes, wanted };
    },

    /** `checkout = false`: the clone's files are not checked out yet (its commit is to be verified first). */
    async clone(checkout = true): Promise<void> {
      const rev = p.revision;
      const depth = p.depth !== undefined ? ['--depth', String(p.depth)] : [];
      const branch = rev !== undefined && !isCommitId(rev) ? ['--branch', rev] : [];
      // Every branch's tip, even shallow or at one branch, so that another revision can be checked out later.
      await run(['clone', '--quiet', '--no-single-branch', ...(checkout ? [] : ['--no-checkout']), ...depth, ...branch, '--', p.source, p.dir], false);
      if (checkout && rev !== undefined && isCommitId(rev)) await provider.checkout(await provider.fetch());
    },

    /** Fetches when the revision is not known here (or is followed); the commit it then names. */
    async fetch(): Promise<string> {
      const rev = p.revision;
      const depth = p.depth !== undefined ? ['--depth', String(p.depth)] : [];
      await run(['fetch', '--quiet', '--tags', ...depth, 'origin']);
      // A commit no branch or tag tip holds (a shallow checkout has few): asked for by its id.
      if (rev !== undefined && isCommitId(rev) && (await resolveLocal(rev)) === undefined) await run(['fetch', '--quiet', ...depth, 'origin', rev]);
      const sha = rev === undefined ? await out(['rev-parse', '--verify', '--quiet', 'origin/HEAD^{commit}']) : await resolveLocal(rev);
      if (sha === undefined) throw new UserError(`${p.source} has no ${rev === undefined ? 'default branch' : `branch, tag or commit ${rev}`}`);
      return sha;
    },

    /**
     * Checks out the commit fetch() found, that commit and not what its branch names by now (the one
     * verified, when it was): a branch as a local branch following the remote's, else detached.
     */
    async checkout(sha: string, force = p.force): Promise<void> {
      const rev = p.revision;
      const forced = force ? ['--force'] : [];
      const branch = rev !== undefined && !isFullCommitId(rev) && (await out(['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${rev}`])) !== undefined;
      if (!branch) return run(['checkout', '--quiet', ...forced, '--detach', sha]);
      await run(['checkout', '--quiet', ...forced, '-B', rev, sha]);
      await run(['branch', '--quiet', `--set-upstream-to=origin/${rev}`, rev]);
    },

    /** Whether a commit is signed by a key of the allowed signers file (the rule of govern pull). */
    verify(commit: string, allowedSigners: string): Promise<Verdict> {
      const git: GitIn = (args, config) => query(context, argv(args, true, config), { env: env(), timeoutMs: TIMEOUT_MS });
      return verifyCommit(git, commit, allowedSigners, (what, r) => new UserError(`git ${what} ${commit} failed (exit ${r.code}): ${r.stderr.trim().split('\n')[0] ?? ''}`));
    },

    /** Whether the commit's object is here (fetched), so that it can be verified without fetching. */
    async has(commit: string): Promise<boolean> {
      return (await out(['cat-file', '-e', `${commit}^{commit}`])) !== undefined;
    },

    async head(): Promise<string> {
      return (await out(['rev-parse', 'HEAD'])) ?? '';
    },
  };
  return provider;
}
