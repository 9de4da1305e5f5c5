// The git decision: clone, move to the wanted commit, or nothing; local changes reported, and kept
// unless force. Pure: the decision table of docs/git.md.
import { UserError } from '../../shared/errors.js';
import type { GitProperties } from './properties.js';

export interface GitCurrent {
  dir: 'absent' | 'empty' | 'checkout' | 'other';
  origin?: string;
  head?: string;
  /** Tracked files changed locally (git status --porcelain). */
  changes: string[];
  /** The commit the revision means, when known (locally, or from the remote for latest). */
  wanted?: string;
}

export interface GitPlan {
  changed: boolean;
  action: 'none' | 'clone' | 'checkout';
  message: string;
}

export function decideGit(p: GitProperties, c: GitCurrent, noop: boolean): GitPlan {
  const would = noop ? 'Would have ' : '';
  const rev = p.revision ?? 'the default branch';
  if (c.dir === 'absent' || c.dir === 'empty') return { changed: true, action: 'clone', message: `${would}cloned ${p.source} into ${p.dir} at ${rev}` };
  if (c.dir === 'other') throw new UserError(`${p.dir} is not empty and not a git checkout: not cloned over it`);
  if (c.origin !== p.source) throw new UserError(`${p.dir} is a checkout of ${c.origin ?? 'no origin'}, not of ${p.source}: left alone`);
  const local = c.changes.length > 0 ? `; ${c.changes.length} ${c.changes.length === 1 ? 'file' : 'files'} changed locally (${c.changes.slice(0, 3).join(', ')}${c.changes.length > 3 ? ', ...' : ''})` : '';
  const at = (commit: string | undefined) => (commit ?? '').slice(0, 12);
  if (c.wanted !== undefined && c.head === c.wanted) return { changed: false, action: 'none', message: `${p.dir} at ${rev} (${at(c.head)})${local}` };
  if (p.revision === undefined && p.ensure === 'present') return { changed: false, action: 'none', message: `${p.dir} cloned (${at(c.head)})${local}` };
  if (local !== '' && !p.force) {
    throw new UserError(`${p.dir} has local changes to ${c.changes.join(', ')}: not moved to ${rev} (force = true discards them)`);
  }
  const to = c.wanted !== undefined ? at(c.wanted) : 'fetched';
  return { changed: true, action: 'checkout', message: `${would}moved ${p.dir} to ${rev}: ${at(c.head)} -> ${to}${local !== '' ? ' (local changes discarded)' : ''}` };
}
