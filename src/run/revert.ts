// After a real run of a pulled tree (docs/rollout.md): a run that succeeded with its health checks
// makes its commit the tree's last good commit; one that failed, in a tree govern pull marked with
// --revert-on-failure, quarantines its commit and returns the tree to the last good commit, which
// the caller then runs at once. The return is carried by every run of the good commit until a newer
// commit succeeds, so the record and govern status say it (CRITICAL) meanwhile. What the good
// commit's run does not write back itself, the backups of the failed run restore (restoreReplaced).
import { goodCommit, markGood, quarantine, readReturn, returnTo, revertMarked, storeGit, writeReturn } from '../pull/good.js';
import { storeOfTree, type PulledTree } from '../pull/store.js';
import { listBackups, restoreBackup, type Backup } from '../record/backups.js';
import { noteGoodCommit } from '../record/last-pull.js';
import { reportErrorText } from '../report/error-text.js';
import { runSucceeded } from '../report/exit-code.js';
import { BACKUP_ALWAYS_ENV } from '../runners/lib/file/backup.js';
import { repositoryPaths } from '../shared/pulled-paths.js';
import type { RevertReport, RunReport } from '../report/types.js';

/** The return the tree's commit carries: the good commit a run returned to, until a newer one succeeds. */
export function carriedReturn(tree: PulledTree): RevertReport | undefined {
  const r = readReturn(storeOfTree(tree));
  return r && r.to === tree.commit ? r : undefined;
}

/** Why the run failed, in one line: its first error, failed resource, failed notification or failed health check. */
export function failureReason(r: RunReport): string {
  return repositoryPaths(firstFailure(r).split('\n')[0]);
}

/** The first failure, with the file and line it is written at when known. */
function firstFailure(r: RunReport): string {
  if (r.errors.length > 0) return reportErrorText(r.errors[0]);
  const resource = r.resources.find((x) => x.status === 'failed');
  if (resource) return `${resource.where}: ${resource.ref} failed: ${resource.message}`;
  const notification = r.notifications.find((n) => n.status === 'failed');
  if (notification) return `${notification.to} <- ${notification.signal} failed: ${notification.message}`;
  if (r.health && r.health.failures.length > 0) return r.health.failures[0];
  return 'the run failed';
}

/**
 * What the run of `tree` (its symlink `dir`) leaves for its commit: the return made (then the tree
 * is at the good commit, for the caller to run), or undefined.
 */
export async function afterPulledRun(dir: string, tree: PulledTree, report: RunReport, varDir: string): Promise<RevertReport | undefined> {
  const store = storeOfTree(tree);
  const c = storeGit(store);
  if (runSucceeded(report)) {
    await markGood(c, tree.commit);
    noteGoodCommit(varDir, dir, tree.commit);
    const kept = readReturn(store);
    if (kept && kept.to !== tree.commit) writeReturn(store, undefined);
    return undefined;
  }
  // A run of the good commit itself (the return's own run) is never returned from.
  if (!revertMarked(store) || report.reverted) return undefined;
  const good = await goodCommit(c);
  if (good === undefined || good === tree.commit) return undefined;
  const reason = failureReason(report);
  await quarantine(c, tree.commit, `reverted from it to ${good}: ${reason}`);
  await returnTo(c, store, dir, good);
  const made = { from: tree.commit, to: good, reason };
  writeReturn(store, made);
  return made;
}

/**
 * After the good commit ran again: the files the failed run replaced (their copies taken between its
 * start and the return's) that the good commit's run did not write back itself, restored from the
 * copy taken first, the content before the failed run. A file the good commit manages is its own.
 */
export function restoreReplaced(varDir: string, failed: RunReport, returnStartMs: number, returned: RunReport | undefined): string[] {
  const start = Date.parse(failed.started_at);
  const all = listBackups(varDir);
  const managed = new Set((returned?.resources ?? []).map((r) => r.ref));
  const rewritten = new Set(all.filter((b) => b.at.getTime() >= returnStartMs).map((b) => b.file));
  const firstCopy = new Map<string, Backup>();
  for (const b of all) if (b.at.getTime() >= start && b.at.getTime() < returnStartMs && !firstCopy.has(b.file)) firstCopy.set(b.file, b);
  const lines: string[] = [];
  for (const [file, copy] of firstCopy) {
    if (rewritten.has(file) || managed.has(`file:${file}`)) continue;
    try {
      lines.push(restoreBackup(varDir, file, copy.id));
    } catch (e) {
      lines.push(`${file}: not restored: ${(e as Error).message}`);
    }
  }
  return lines;
}

/** The runners' environment in a tree marked for a return: every change of content backed up. */
export function backUpAll(tree: PulledTree): Record<string, string> {
  return revertMarked(storeOfTree(tree)) ? { [BACKUP_ALWAYS_ENV]: '1' } : {};
}
