// The download runner's decision (docs/download.md): what is at the path + the checksum and the
// attributes asked for -> fetch or not, the attributes to set, removal, and the message. Pure.
import { UserError } from '../../shared/errors.js';
import { formatMode } from '../../shared/values.js';
import { symlinkError } from '../lib/file/errors.js';
import type { Attributes, ParentState } from '../lib/file/state.js';

export type DownloadCurrent =
  | { type: 'absent'; parent: ParentState }
  | { type: 'file'; sha256: string; attrs: Attributes }
  | { type: 'symlink'; target: string }
  | { type: 'other'; kind: string };

export interface DownloadDesired {
  path: string;
  ensure: 'present' | 'absent';
  url?: string;
  /** The SHA-256, lower case hexadecimal. */
  sha256?: string;
  /** Resolved owner and group, and the mode, when given. */
  attrs: Partial<Attributes>;
}

export interface DownloadPlan {
  changed: boolean;
  fetch: boolean;
  remove: boolean;
  /** The attributes the file ends with, when they are set (a fetched file's, or those that differ). */
  attrs?: Attributes;
  summary: string;
  warnings: string[];
}

const NEW_FILE: Attributes = { uid: 0, gid: 0, mode: 0o644 };

export function decide(d: DownloadDesired, current: DownloadCurrent, noop: boolean): DownloadPlan {
  const none = (summary: string): DownloadPlan => ({ changed: false, fetch: false, remove: false, summary, warnings: [] });
  if (current.type === 'symlink') throw symlinkError(d.path, current.target);
  if (current.type === 'other') throw new UserError(`${d.path} is ${current.kind}, not a regular file; govern downloads only to a regular file`);
  if (d.ensure === 'absent') {
    if (current.type === 'absent') return none(`${d.path} absent`);
    return { changed: true, fetch: false, remove: true, summary: `removed ${d.path}`, warnings: [] };
  }
  const short = `sha256:${d.sha256!.slice(0, 12)}`;
  if (current.type === 'absent') {
    const attrs = { ...NEW_FILE, ...d.attrs };
    if (current.parent === 'directory') return { changed: true, fetch: true, remove: false, attrs, summary: `downloaded ${d.url} to ${d.path}`, warnings: [] };
    const problem = `the directory of ${d.path} ${current.parent === 'missing' ? 'does not exist' : 'is not a directory'}`;
    // In noop mode an earlier resource, not applied, may be what creates it.
    if (!noop) throw new UserError(problem);
    return { changed: true, fetch: true, remove: false, attrs, summary: `downloaded ${d.url} to ${d.path}`, warnings: [`${problem}; an earlier resource may create it, otherwise the real run fails`] };
  }
  const attrs = { ...current.attrs, ...d.attrs };
  if (current.sha256 !== d.sha256) {
    return { changed: true, fetch: true, remove: false, attrs, summary: `downloaded ${d.url} to ${d.path} (it did not match ${short})`, warnings: [] };
  }
  const changes = attributeChanges(current.attrs, attrs);
  if (changes.length === 0) return none(`${d.path} matches ${short}: not fetched`);
  return { changed: true, fetch: false, remove: false, attrs, summary: `${d.path} matches ${short}: ${changes.join(', ')}`, warnings: [] };
}

function attributeChanges(from: Attributes, to: Attributes): string[] {
  const out: string[] = [];
  if (from.uid !== to.uid) out.push(`owner ${from.uid} -> ${to.uid}`);
  if (from.gid !== to.gid) out.push(`group ${from.gid} -> ${to.gid}`);
  if (from.mode !== to.mode) out.push(`mode ${formatMode(from.mode)} -> ${formatMode(to.mode)}`);
  return out;
}

/** "Would have downloaded ..." in noop mode, else what was done. */
export function downloadMessage(plan: DownloadPlan, noop: boolean): string {
  return noop && plan.changed ? `Would have ${plan.summary}` : plan.summary;
}
