// `govern modules fetch` and `govern modules update [NAME...]`: every module modules.hcl names,
// and the modules their own modules.hcl names, staged and checked first; only when all of them are
// good is modules/ changed (each module renamed into place) and modules.lock written. A ref that now
// names another commit than the lock's is refused unless `update` names the module: a moved tag is
// what a supply-chain attack looks like, so accepting it is a decision someone makes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { syncDirectory } from '../shared/atomic-file.js';
import { UserError, type Problem } from '../shared/errors.js';
import { flockFd } from '../shared/flock.js';
import { closeSession, gitSession, stageGit, type GitSession } from './git-source.js';
import { MODULES_DIR, readLock, writeLock, type LockedModule, type ModuleLock } from './lock-file.js';
import { MANIFEST_FILE, readManifest, sameSource, sourceText, type ModuleSourceDecl } from './manifest.js';
import { stagePath } from './path-source.js';
import { hashTree } from './tree-hash.js';

export interface FetchRequest {
  root: string;
  /** Modules whose ref may now name another commit than the lock's: 'all' for `update` alone. */
  update: Set<string> | 'all';
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

interface Staged {
  decl: ModuleSourceDecl;
  stage: string;
  locked: LockedModule;
}

/** What happened to each module, a line each, in name order. */
export async function fetchModules(r: FetchRequest): Promise<string[]> {
  const root = path.resolve(r.root);
  const decls = readManifest(path.join(root, MANIFEST_FILE), root);
  if (decls.length === 0) throw new UserError(`${path.join(root, MANIFEST_FILE)}: no module_source blocks: nothing to fetch (docs/modules.md, "Modules from git")`);
  const modulesDir = path.join(root, MODULES_DIR);
  fs.mkdirSync(modulesDir, { recursive: true, mode: 0o755 });
  // One fetch at a time in a tree: the lock is on the modules/ directory itself.
  const held = fs.openSync(modulesDir, 'r');
  try {
    if (!(await flockFd(held, r.timeoutMs))) throw new UserError(`${modulesDir}: another govern modules fetch is under way`);
    return await fetchLocked(r, root, modulesDir, decls);
  } finally {
    fs.closeSync(held);
  }
}

async function fetchLocked(r: FetchRequest, root: string, modulesDir: string, decls: ModuleSourceDecl[]): Promise<string[]> {
  const lock = readLock(root);
  const session = gitSession(root, r.env, r.timeoutMs);
  const staged = new Map<string, Staged>();
  const problems: Problem[] = [];
  try {
    const queue = [...decls];
    for (let i = 0; i < queue.length; i++) {
      const d = queue[i];
      const before = staged.get(d.name);
      if (before) {
        if (!sameSource(before.decl, d)) problems.push({ file: d.file, line: d.line, message: `module "${d.name}" is asked for twice, differently: ${sourceText(d)} here, ${sourceText(before.decl)} at ${before.decl.file}:${before.decl.line}; a tree takes one version of each module` });
        continue;
      }
      try {
        const s = await stage(session, d, modulesDir, lock, r.update, root);
        staged.set(d.name, s);
        queue.push(...dependencies(s, root));
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        problems.push(...e.problems);
      }
    }
    for (const name of staged.keys()) {
      const own = path.join(modulesDir, name);
      if (fs.existsSync(own) && !lock.has(name)) problems.push({ file: staged.get(name)?.decl.file ?? root, line: staged.get(name)?.decl.line, message: `modules/${name} is the tree's own module (it is not in modules.lock): move it away, or give the module_source another name` });
    }
    if (problems.length > 0) throw new UserError(problems);
    return install(root, modulesDir, lock, staged);
  } finally {
    for (const s of staged.values()) fs.rmSync(s.stage, { recursive: true, force: true });
    closeSession(session);
  }
}

async function stage(session: GitSession, d: ModuleSourceDecl, modulesDir: string, lock: ModuleLock, update: FetchRequest['update'], root: string): Promise<Staged> {
  const stageDir = path.join(modulesDir, `.${d.name}.fetch-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    let commit: string | undefined;
    if (d.git !== undefined) {
      commit = (await stageGit(session, d, stageDir)).commit;
      const was = lock.get(d.name);
      const allowed = update === 'all' || update.has(d.name);
      if (was && was.source === d.git && was.ref === d.ref && was.commit !== commit && !allowed) {
        throw new UserError({ file: d.file, line: d.line, message: `module_source "${d.name}": ref "${d.ref}" of ${d.git} now names commit ${commit}, and modules.lock has ${was.commit}: the ref moved. Check why, then accept it with \`govern modules update ${d.name}\`` });
      }
    } else stagePath(d, stageDir);
    const { hash } = hashTree(stageDir);
    const source = d.git ?? path.relative(root, d.path as string);
    return { decl: d, stage: stageDir, locked: { source, ...(d.ref !== undefined ? { ref: d.ref } : {}), ...(commit !== undefined ? { commit } : {}), hash } };
  } catch (e) {
    fs.rmSync(stageDir, { recursive: true, force: true });
    throw e;
  }
}

/** The module's own modules.hcl: its dependencies, shown at the path they will have in the tree. */
function dependencies(s: Staged, root: string): ModuleSourceDecl[] {
  const file = path.join(s.stage, MANIFEST_FILE);
  const shown = path.join(root, MODULES_DIR, s.decl.name, MANIFEST_FILE);
  try {
    return readManifest(file, s.stage).map((d) => ({ ...d, file: shown }));
  } catch (e) {
    if (e instanceof UserError) throw new UserError(e.problems.map((p) => ({ ...p, file: p.file === file ? shown : p.file })));
    throw e;
  }
}

/** Every staged module into place, then the lock; modules the lock had and no one asks for now go. */
function install(root: string, modulesDir: string, lock: ModuleLock, staged: Map<string, Staged>): string[] {
  const lines: string[] = [];
  const next: ModuleLock = new Map();
  for (const name of [...staged.keys()].sort()) {
    const s = staged.get(name) as Staged;
    const dir = path.join(modulesDir, name);
    const was = lock.get(name);
    const shown = `${name}: ${s.decl.git !== undefined ? `${s.decl.git} at ${s.decl.ref} (commit ${s.locked.commit?.slice(0, 12)})` : s.locked.source}`;
    next.set(name, s.locked);
    if (was && was.hash === s.locked.hash && was.commit === s.locked.commit && fs.existsSync(dir) && hashTree(dir).hash === s.locked.hash) {
      lines.push(`${shown}: up to date`);
      continue;
    }
    replaceDir(dir, s.stage);
    lines.push(`${shown}: ${was ? (was.commit !== s.locked.commit ? `updated from ${was.commit?.slice(0, 12) ?? was.source}` : 'restored') : 'vendored'}`);
  }
  for (const name of [...lock.keys()].sort()) {
    if (next.has(name)) continue;
    fs.rmSync(path.join(modulesDir, name), { recursive: true, force: true });
    lines.push(`${name}: removed (modules.hcl no longer names it)`);
  }
  syncDirectory(modulesDir);
  writeLock(root, next);
  return lines;
}

/** `stage` in the place of `dir`: whoever reads modules/NAME sees the old files or the new ones. */
function replaceDir(dir: string, stage: string): void {
  if (!fs.existsSync(dir)) {
    fs.renameSync(stage, dir);
    return;
  }
  const old = `${stage}.old`;
  fs.renameSync(dir, old);
  fs.renameSync(stage, dir);
  fs.rmSync(old, { recursive: true, force: true });
}
