// The archive decision: skipped (creates), already extracted (the marker names the same SHA-256),
// or extracted (again). Pure: the decision table of docs/archive.md.
import type { ArchiveProperties } from './properties.js';

export interface ArchiveCurrent {
  /** Whether `creates` exists (undefined: no creates). */
  createsExists?: boolean;
  target: 'absent' | 'directory' | 'other';
  /** The SHA-256 in the target's marker. */
  marked?: string;
}

export interface ArchivePlan {
  changed: boolean;
  message: string;
}

export function decideArchive(p: ArchiveProperties, current: ArchiveCurrent, noop: boolean): ArchivePlan {
  const would = noop ? 'Would have ' : '';
  if (current.createsExists) return { changed: false, message: `${p.creates} exists: ${p.target} left alone` };
  if (current.target === 'directory' && current.marked === p.sha256) return { changed: false, message: `${p.target} holds the archive (sha256 ${short(p.sha256)})` };
  if (current.target === 'absent') return { changed: true, message: `${would}extracted ${p.source} into ${p.target}` };
  const why = current.marked !== undefined ? `sha256 ${short(current.marked)} -> ${short(p.sha256)}` : current.target === 'other' ? 'not a directory' : 'extracted by something else';
  return { changed: true, message: `${would}replaced ${p.target} with ${p.source} (${why})` };
}

function short(sha: string): string {
  return sha.slice(0, 12);
}
