// recurse = true: a directory's `source` tree copied into it. Each entry of the tree is decided and
// applied as a file resource of its own would be (decide.ts, the posix provider), so the rules for
// what is at a path are the same: a link in the way of a file is an error, a directory in the way
// of a file needs force. Files take the resource's owner, group and mode; directories the same
// owner and group, and the mode with search permission added wherever read permission is set
// (Puppet's rule for a directory's numeric mode); a link in the tree is copied as a link with the
// same target, never followed (docs/file.md, "Recurse").
import crypto from 'node:crypto';
import { decide, type Plan } from './decide.js';
import { readSourceTree, type SourceEntry } from './source-tree.js';
import type { Current, FileProvider } from '../lib/file/state.js';
import type { Desired } from './desired.js';

/** One entry's decision, with the desired state it was made for. */
export interface ChildPlan {
  rel: string;
  desired: Desired;
  plan: Plan;
}

/** The mode of a directory of the tree: x wherever r is set. */
export function directoryMode(mode: number): number {
  return mode | ((mode & 0o444) >> 2);
}

/** The tree's entries, each decided against what is at its place under the directory. */
export async function planTree(dir: Desired, source: string, provider: FileProvider, noop: boolean, dirExists: boolean): Promise<{ entries: SourceEntry[]; children: ChildPlan[] }> {
  const entries = readSourceTree(source);
  const children: ChildPlan[] = [];
  // In noop, what is under a directory that would be created is absent, not an error.
  const created = new Set<string>();
  for (const entry of entries) {
    const desired = desiredFor(dir, entry);
    const parent = entry.rel.includes('/') ? entry.rel.slice(0, entry.rel.lastIndexOf('/')) : '';
    const unborn = (parent === '' && !dirExists) || created.has(parent);
    const current: Current = unborn
      ? { type: 'absent', parent: 'directory' }
      : await provider.status(desired.path, { checkEmpty: desired.ensure !== 'directory', keepContentUpTo: 0 });
    const plan = decide(desired, current, noop);
    if (entry.type === 'directory' && current.type !== 'directory') created.add(entry.rel);
    if (plan.changed) children.push({ rel: entry.rel, desired, plan });
  }
  return { entries, children };
}

function desiredFor(dir: Desired, entry: SourceEntry): Desired {
  const path = `${dir.path}/${entry.rel}`;
  const common = { path, owner: dir.owner, group: dir.group, force: dir.force, showDiff: false };
  switch (entry.type) {
    case 'directory':
      return { ...common, ensure: 'directory', mode: directoryMode(dir.mode!) };
    case 'file':
      return { ...common, ensure: 'present', mode: dir.mode, content: { bytes: entry.bytes, sha256: crypto.createHash('sha256').update(entry.bytes).digest('hex'), origin: entry.rel } };
    case 'link':
      return { ...common, ensure: 'link', mode: undefined, linkTarget: entry.target };
  }
}

/** What changed (or would), one entry a part: "conf.d/a.conf: created the file". */
export function treeSummary(children: ChildPlan[]): string {
  return children.map((c) => `${c.rel}: ${c.plan.summary}`).join('; ');
}
