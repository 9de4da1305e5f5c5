// The state tree as it is at a git revision, without a checkout: the commit's files written by
// `git archive` into a private temporary directory, which the caller removes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, type RunResult } from '../shared/process.js';
import { UserError } from '../shared/errors.js';

const GIT_TIMEOUT_MS = 120_000;

async function git(dir: string, args: string[]): Promise<RunResult> {
  const r = await runCommand('git', args, { cwd: dir, timeoutMs: GIT_TIMEOUT_MS });
  if (r.spawnError) throw new UserError(`cannot run git: ${r.spawnError.message}`);
  return r;
}

export interface Repository {
  /** The top of the working tree. */
  top: string;
  /** The tree's path inside the repository ('' for its top). */
  prefix: string;
}

/** The repository PATH is in, and where in it PATH is. */
export async function repositoryOf(given: string): Promise<Repository> {
  const full = path.resolve(given);
  const stat = fs.statSync(full, { throwIfNoEntry: false });
  if (!stat) throw new UserError(`${given}: no such file or directory`);
  const dir = stat.isDirectory() ? full : path.dirname(full);
  const r = await git(dir, ['rev-parse', '--show-toplevel']);
  if (r.code !== 0) throw new UserError(`${given} is not in a git repository: ${r.stderr.trim()}`);
  const top = fs.realpathSync(r.stdout.trim());
  return { top, prefix: path.relative(top, fs.realpathSync(full)) };
}

/** The commit a revision names (a branch, a tag, HEAD~2, origin/main...). */
export async function resolveCommit(repo: Repository, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new UserError(`${rev}: a revision does not start with "-"`);
  const r = await git(repo.top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  if (r.code !== 0) throw new UserError(`${rev}: not a commit in ${repo.top}`);
  return r.stdout.trim();
}

/** Writes the commit's files under `into` (a directory of its own); returns the tree's path there. */
export async function extractCommit(repo: Repository, commit: string, into: string): Promise<string> {
  fs.mkdirSync(into, { recursive: true, mode: 0o700 });
  const archive = `${into}.tar`;
  // git archive writes group-writable modes (its tar.umask is 002) and tar as root keeps the modes and
  // owners it reads: a tree's runners.d would then be refused as writable by others. Neither is taken.
  const made = await git(repo.top, ['-c', 'tar.umask=022', 'archive', '--format=tar', '-o', archive, commit]);
  if (made.code !== 0) throw new UserError(`git archive ${commit} failed: ${made.stderr.trim()}`);
  const unpacked = await runCommand('tar', ['--no-same-owner', '--no-same-permissions', '-xf', archive, '-C', into], { timeoutMs: GIT_TIMEOUT_MS });
  fs.rmSync(archive, { force: true });
  if (unpacked.code !== 0) throw new UserError(`cannot unpack ${commit}: ${unpacked.stderr.trim()}`);
  return path.join(into, repo.prefix);
}

/** A private temporary directory (0700), removed with everything in it once `work` is done. */
export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-diff-'));
  try {
    return await work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
