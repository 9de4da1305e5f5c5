// `purge = true` on a directory: what it holds that the tree does not manage is removed. Which
// entries the tree manages is not guessed: govern passes their names (GOVERN_MANAGED_CHILDREN,
// docs/runners.md), an entry being managed when a resource of any runner is named by its path or
// by a path below it. A FIFO, socket or device is left alone. Only the directory's own entries are looked at; an unmanaged entry goes
// whole (a directory with everything in it, a link and never what it points to). Directories that
// hold the system itself are refused (docs/file.md, "Purge").
import { UserError } from '../../shared/errors.js';
import type { FileProvider, Listing } from '../lib/file/state.js';

/** Beyond the top level (refused whole), where a purge would remove what packages installed or keep. */
export const PURGE_REFUSED = [
  '/usr/bin', '/usr/sbin', '/usr/lib', '/usr/lib32', '/usr/lib64', '/usr/libexec', '/usr/libx32', '/usr/include', '/usr/share', '/usr/local', '/usr/src',
  '/var/lib', '/var/cache', '/var/log', '/var/spool', '/var/backups', '/var/mail',
];

export type Entry = Listing['entries'][number] & { type: 'file' | 'directory' | 'link' };

/** Refuses a directory purge must not empty: "/", any top-level directory, and PURGE_REFUSED. */
export function refusePurge(path: string): void {
  if (path.split('/').filter((c) => c !== '').length <= 1 || PURGE_REFUSED.includes(path)) {
    throw new UserError(`purge = true is refused on ${path}: it holds what the system itself needs (govern purges only directories below the top level and outside ${PURGE_REFUSED.join(', ')})`);
  }
}

/** The entries of `path` to remove: those not in `managed`. An absent directory holds nothing. */
export async function unmanagedEntries(path: string, managed: string[] | undefined, provider: FileProvider): Promise<Entry[]> {
  if (managed === undefined) {
    throw new UserError(`purge = true needs the names of the entries of ${path} the tree manages, which govern passes (GOVERN_MANAGED_CHILDREN); set it when calling the runner by hand`);
  }
  refusePurge(path);
  const listing = await provider.list(path);
  if (listing.resolved !== path) refusePurge(listing.resolved);
  const keep = new Set(managed);
  return listing.entries.filter((e): e is Entry => !keep.has(e.name) && e.type !== 'other').sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** How the message names what goes: "old.conf, cache/ (a directory), x -> (a link)". */
export function describeEntries(entries: Entry[]): string {
  return entries.map((e) => (e.type === 'directory' ? `${e.name}/ (a directory, with what it holds)` : e.type === 'link' ? `${e.name} (a symbolic link)` : e.name)).join(', ');
}

/** Removes each entry: a link itself, a directory with everything in it. */
export async function removeEntries(path: string, entries: Entry[], provider: FileProvider): Promise<void> {
  for (const e of entries) await provider.remove(`${path}/${e.name}`, e.type, e.type === 'directory');
}
