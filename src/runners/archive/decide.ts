// The archive decision: skipped (creates), already extracted (the marker names the same SHA-256),
// extracted (again), or refused: a target govern did not extract (no marker) is replaced only when
// it is an empty directory, so a mistyped target (/opt, /srv) can never be swapped away. Pure: the
// decision table of docs/archive.md.
import { UserError } from '../../shared/errors.js';
import { MARKER, type ArchiveProperties } from './properties.js';

export interface ArchiveCurrent {
  /** Whether `creates` exists (undefined: no creates). */
  createsExists?: boolean;
  target: 'absent' | 'directory' | 'other';
  /** The SHA-256 in the target's marker. */
  marked?: string;
  /** A directory without entries. */
  empty?: boolean;
}

export interface ArchivePlan {
  changed: boolean;
  message: string;
}

export function decideArchive(p: ArchiveProperties, current: ArchiveCurrent, noop: boolean): ArchivePlan {
  const would = noop ? 'Would have ' : '';
  if (current.createsExists) return { changed: false, message: `${p.creates} exists: ${p.target} left alone` };
  if (current.target === 'directory' && current.marked === p.sha256) return { changed: false, message: `${p.target} holds the archive (sha256 ${short(p.sha256)})` };
  if (current.target === 'absent' || (current.target === 'directory' && current.marked === undefined && current.empty)) return { changed: true, message: `${would}extracted ${p.source} into ${p.target}` };
  if (current.target === 'other') throw new UserError(`${p.target} exists and is not a directory: an archive is extracted into a directory of its own; remove it, or choose another target`);
  if (current.marked === undefined) throw new UserError(`${p.target} holds files govern did not extract (no ${MARKER}): refusing to replace them; empty or remove it, or choose another target`);
  return { changed: true, message: `${would}replaced ${p.target} with ${p.source} (sha256 ${short(current.marked)} -> ${short(p.sha256)})` };
}

function short(sha: string): string {
  return sha.slice(0, 12);
}
