// Resolving a path that govern is about to change or read as root, so that no one who can write a
// directory on the way chooses where that happens (docs/file.md, "Symbolic links on the way").
// Every directory is opened without following a link in its place, and the next component is
// reached through the open directory (/proc/self/fd/N/NAME): what was checked is what is acted on,
// and a link planted after the check leads nowhere. Links on the way are followed by systemd's
// CHASE_SAFE rule: only a link owned by root or by the owner of the directory holding it, and never
// from something a user owns into something another user or root owns.
// The walk uses synchronous calls: a few microseconds each, where a trip through libuv's thread pool
// per component made a no-change run of 100 files measurably slower.
import fs, { constants as C, type Stats } from 'node:fs';
import nodePath from 'node:path';
import { UserError } from './errors.js';

/** A directory held open, and how to name an entry of it. */
export interface HeldDirectory {
  /** The directory's path as resolved, for messages. */
  shown: string;
  /** The directory itself, reached through the open handle (for system calls). */
  proc: string;
  stat: Stats;
  close(): void;
}

/** Where a chase ended. */
export type Chased =
  /** The directory that holds `name` (which may not exist yet), held open. */
  | { kind: 'found'; dir: HeldDirectory; name: string }
  /** A directory on the way does not exist, or is not a directory: `at` names it. */
  | { kind: 'missing' | 'not-directory'; at: string };

/**
 * Linux's O_PATH (not in Node's constants): a handle that locates a directory without opening it for
 * reading, so a directory one may pass through but not list (mode 0711) can be held too.
 */
const O_PATH = 0o10000000;
const HOLD = O_PATH | C.O_DIRECTORY;

/** As the kernel allows (ELOOP past 40 links). */
const MAX_LINKS = 40;

/**
 * Resolves `path` (absolute) to the directory that holds its last component, following links on
 * the way by the rule above; with `followLast`, a link at the last component is followed too (what
 * reading a file means), otherwise the last component is left for the caller to examine.
 * Throws a UserError naming the component and why when a link or a step is refused.
 */
export function chase(path: string, options: { followLast: boolean }): Chased {
  const pending = path.split('/').filter((n) => n !== '' && n !== '.');
  const last = options.followLast ? undefined : pending.pop();
  let dir = hold('/', fs.openSync('/', HOLD));
  // What was passed last (a directory or a link): the owner a step away from it must keep.
  let from = dir.stat;
  let links = 0;
  // The link just followed, if any: a refused step names it, not the path the link led to.
  let followed: string | undefined;
  try {
    for (;;) {
      const name = pending.shift();
      if (name === undefined) break;
      const entry = `${dir.proc}/${name}`;
      const shownEntry = join(dir.shown, name);
      if (name === '..') {
        const parent = hold(nodePath.dirname(dir.shown), fs.openSync(entry, HOLD));
        refuseStep(path, from, parent, followed ?? shownEntry);
        dir.close();
        dir = parent;
        from = parent.stat;
        followed = undefined;
        continue;
      }
      const st = lstatOrUndefined(entry);
      const isLast = options.followLast && pending.length === 0;
      if (st === undefined) {
        if (isLast) return { kind: 'found', dir, name };
        dir.close();
        return { kind: 'missing', at: shownEntry };
      }
      if (st.isSymbolicLink()) {
        refuseLink(path, st, dir, shownEntry);
        if (++links > MAX_LINKS) throw new UserError(`${path}: too many levels of symbolic links (more than ${MAX_LINKS}) at ${shownEntry}`);
        const target = fs.readlinkSync(entry);
        pending.unshift(...target.split('/').filter((n) => n !== '' && n !== '.'));
        from = st;
        followed = `${shownEntry} (a symbolic link to ${target})`;
        if (target.startsWith('/')) {
          const root = hold('/', fs.openSync('/', HOLD));
          dir.close();
          dir = root;
          refuseStep(path, from, root, followed);
          from = root.stat;
          followed = undefined;
        }
        continue;
      }
      if (isLast) return { kind: 'found', dir, name };
      if (!st.isDirectory()) {
        dir.close();
        return { kind: 'not-directory', at: shownEntry };
      }
      let opened: number;
      try {
        opened = fs.openSync(entry, HOLD | C.O_NOFOLLOW);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT') {
          throw new UserError(`${path}: ${shownEntry} changed while govern was resolving it; nothing was done, run again`);
        }
        throw e;
      }
      const child = hold(shownEntry, opened);
      refuseStep(path, from, child, followed ?? shownEntry);
      dir.close();
      dir = child;
      from = child.stat;
      followed = undefined;
    }
    if (last !== undefined) return { kind: 'found', dir, name: last };
    // "/" itself, followed to its end: the root directory, as its own entry.
    return { kind: 'found', dir, name: '.' };
  } catch (e) {
    dir.close();
    throw e;
  }
}

function hold(shown: string, fd: number): HeldDirectory {
  try {
    const stat = fs.fstatSync(fd);
    return { shown, proc: `/proc/self/fd/${fd}`, stat, close: () => fs.closeSync(fd) };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** A link counts only when root or the owner of its directory made it: no one else can redirect the path. */
function refuseLink(path: string, link: Stats, dir: HeldDirectory, shownEntry: string): void {
  if (link.uid === 0 || link.uid === dir.stat.uid) return;
  throw new UserError(
    `${path}: refusing to follow ${shownEntry}, a symbolic link owned by uid ${link.uid} in ${dir.shown}, a directory owned by uid ${dir.stat.uid}: ` +
      'a link on the way is followed only when root or the owner of its directory made it (anyone else could choose where govern writes); ' +
      'replace it with a real directory or a link owned by root',
  );
}

/** Never from what a user owns into what another user, or root, owns (CHASE_SAFE's unsafe transition). */
function refuseStep(path: string, from: Stats, to: HeldDirectory, via: string): void {
  if (from.uid === 0 || from.uid === to.stat.uid) return;
  throw new UserError(
    `${path}: refusing to go through ${via} from something owned by uid ${from.uid} to ${to.shown}, owned by uid ${to.stat.uid}: ` +
      'govern does not follow a path out of what a user controls into what root or another user owns (that user could point it anywhere); ' +
      'use the resolved path, or a link owned by root',
  );
}

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** A path's lstat, or undefined when nothing is there (no exception for that). */
export function lstatOrUndefined(path: string): Stats | undefined {
  return fs.lstatSync(path, { throwIfNoEntry: false });
}

/** Whether `path` exists, with every link on the way, its own name included, followed only as chase allows. */
export function existsSafely(path: string): boolean {
  const chased = chase(path, { followLast: true });
  if (chased.kind !== 'found') return false;
  try {
    return lstatOrUndefined(`${chased.dir.proc}/${chased.name}`) !== undefined;
  } finally {
    chased.dir.close();
  }
}
