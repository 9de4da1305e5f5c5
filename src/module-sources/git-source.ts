// One module from git: fetched into a private bare repository, its ref resolved (a full commit id
// as an object, never as a ref a branch or tag could shadow), its signature checked against the
// allowed signers when given (as `govern pull` checks a commit), its files listed (no link, no
// submodule, bounded), then checked out into a staging directory. Nothing in the tree changes here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, gitChecked, GitFailure, type GitContext } from '../pull/git.js';
import { verifyCommit } from '../shared/commit-signature.js';
import { UserError } from '../shared/errors.js';
import { foreignRepository, localRepositoryPath } from '../shared/git-safety.js';
import { isInside } from '../shared/source-file.js';
import { sourceText, type ModuleSourceDecl } from './manifest.js';
import { MODULE_LIMITS } from './tree-hash.js';

export interface GitSession {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** The tree's root: an allowed signers file must be inside it. */
  root: string;
  /** One bare repository per repository URL, for this fetch only. */
  repos: Map<string, GitContext>;
  scratch: string;
}

export function gitSession(root: string, env: NodeJS.ProcessEnv, timeoutMs: number): GitSession {
  return { env, timeoutMs, root, repos: new Map(), scratch: fs.mkdtempSync(path.join(os.tmpdir(), 'govern-modules-')) };
}

export function closeSession(s: GitSession): void {
  fs.rmSync(s.scratch, { recursive: true, force: true });
}

const COMMIT_ID = /^[0-9a-f]{40}$/;

/** The repository of `url` with its branches and tags fetched (once per session). */
async function repository(s: GitSession, d: ModuleSourceDecl): Promise<GitContext> {
  const url = d.git as string;
  const known = s.repos.get(url);
  if (known) return known;
  const local = localRepositoryPath(url);
  const foreign = local !== undefined ? foreignRepository(local, process.getuid?.() ?? 0, 'root') : undefined;
  if (foreign !== undefined) throw new UserError({ file: d.file, line: d.line, message: `module_source "${d.name}": ${url}: ${foreign}; serve it over ssh:// or https://, or let root own it` });
  const c: GitContext = { gitDir: path.join(s.scratch, `repo-${s.repos.size}.git`), env: { ...s.env, GIT_TERMINAL_PROMPT: '0' }, timeoutMs: s.timeoutMs };
  try {
    await gitChecked(c, 'init', ['init', '--quiet', '--bare']);
    await gitChecked(c, 'fetch', ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*']);
  } catch (e) {
    if (e instanceof GitFailure) throw new UserError({ file: d.file, line: d.line, message: `module_source "${d.name}": cannot fetch ${url}: ${e.message}` });
    throw e;
  }
  s.repos.set(url, c);
  return c;
}

/** The commit `ref` names: a full id as an object; otherwise a tag, then a branch. */
async function resolveRef(c: GitContext, d: ModuleSourceDecl): Promise<string> {
  const ref = d.ref as string;
  const candidates = COMMIT_ID.test(ref) ? [ref] : [`refs/tags/${ref}`, `refs/heads/${ref}`];
  for (const candidate of candidates) {
    const r = await git(c, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${candidate}^{commit}`]);
    if (r.code === 0) return r.stdout.trim();
  }
  const what = COMMIT_ID.test(ref) ? `commit ${ref} is not reachable from any branch or tag of ${d.git}` : `${d.git} has no tag or branch "${ref}"`;
  throw new UserError({ file: d.file, line: d.line, message: `module_source "${d.name}": ${what}` });
}

export interface FetchedGit {
  commit: string;
  signer?: string;
}

/** Fetches `d` and checks out its commit into `stage` (an empty directory made here). */
export async function stageGit(s: GitSession, d: ModuleSourceDecl, stage: string): Promise<FetchedGit> {
  const at = { file: d.file, line: d.line };
  const c = await repository(s, d);
  const commit = await resolveRef(c, d);
  let signer: string | undefined;
  if (d.allowedSigners !== undefined) {
    if (!isInside(d.allowedSigners, path.resolve(s.root)) || !fs.statSync(d.allowedSigners, { throwIfNoEntry: false })?.isFile()) {
      throw new UserError({ ...at, message: `module_source "${d.name}": allowed_signers must name a file inside the tree, not ${d.allowedSigners}` });
    }
    const verdict = await verifyCommit((args, config) => git(c, args, { config }), commit, d.allowedSigners, (what, result) => new GitFailure(what, result, c.timeoutMs));
    if (!verdict.ok) throw new UserError({ ...at, message: `module_source "${d.name}": refusing commit ${commit} of ${sourceText(d)}: ${verdict.reason} (allowed signers: ${path.relative(s.root, d.allowedSigners)})` });
    signer = verdict.signer;
  }
  await checkListing(c, d, commit);
  const index = path.join(s.scratch, `index-${path.basename(stage)}`);
  fs.mkdirSync(stage, { mode: 0o755 });
  try {
    const env = { GIT_INDEX_FILE: index };
    await gitChecked(c, 'read-tree', ['read-tree', commit], { env });
    await gitChecked(c, 'checkout-index', [`--work-tree=${stage}`, 'checkout-index', '--all'], { env });
  } catch (e) {
    if (e instanceof GitFailure) throw new UserError({ ...at, message: `module_source "${d.name}": cannot check out ${commit}: ${e.message}` });
    throw e;
  } finally {
    fs.rmSync(index, { force: true });
  }
  return { commit, ...(signer !== undefined ? { signer } : {}) };
}

/** The commit's files: only directories and files (no link, no submodule), within the module bounds. */
async function checkListing(c: GitContext, d: ModuleSourceDecl, commit: string): Promise<void> {
  const listing = await gitChecked(c, 'ls-tree', ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
  let files = 0;
  let bytes = 0;
  const refused: string[] = [];
  for (const entry of listing.split('\0')) {
    if (entry === '') continue;
    const tab = entry.indexOf('\t');
    const [mode, , , size] = entry.slice(0, tab).split(/\s+/);
    const name = entry.slice(tab + 1);
    if (mode === '120000') refused.push(`${name} (a link)`);
    else if (mode === '160000') refused.push(`${name} (a submodule)`);
    files++;
    bytes += Number(size) || 0;
  }
  const where = `module_source "${d.name}": ${sourceText(d)} (commit ${commit})`;
  if (refused.length > 0) throw new UserError({ file: d.file, line: d.line, message: `${where} holds ${refused.slice(0, 5).map((r) => JSON.stringify(r)).join(', ')}${refused.length > 5 ? ` and ${refused.length - 5} more` : ''}: a vendored module holds only files and directories` });
  if (files > MODULE_LIMITS.files || bytes > MODULE_LIMITS.bytes) throw new UserError({ file: d.file, line: d.line, message: `${where} holds ${files} files of ${bytes} bytes: a module is bounded to ${MODULE_LIMITS.files} files and ${MODULE_LIMITS.bytes / 1024 / 1024} MiB` });
}

/** The tags of `d`'s repository, without fetching objects (`git ls-remote`). */
export async function remoteTags(s: GitSession, d: ModuleSourceDecl): Promise<string[]> {
  const c: GitContext = { gitDir: path.join(s.scratch, 'ls-remote.git'), env: s.env, timeoutMs: s.timeoutMs };
  if (!fs.existsSync(c.gitDir)) await gitChecked(c, 'init', ['init', '--quiet', '--bare']);
  try {
    const out = await gitChecked(c, 'ls-remote', ['ls-remote', '--tags', '--refs', '--', d.git as string]);
    return out.split('\n').filter((l) => l.includes('\trefs/tags/')).map((l) => l.slice(l.indexOf('\trefs/tags/') + '\trefs/tags/'.length));
  } catch (e) {
    if (e instanceof GitFailure) throw new UserError({ file: d.file, line: d.line, message: `module_source "${d.name}": cannot list the tags of ${d.git}: ${e.message}` });
    throw e;
  }
}
