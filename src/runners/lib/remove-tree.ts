// Removal of a directory and everything in it by handle: each directory is opened with O_NOFOLLOW
// and held, and its entries are removed through that handle (/proc/self/fd/N/NAME, which is
// unlinkat(N, NAME)), never by a path again. Whoever owns a directory inside can swap what it holds
// for links while the removal runs: a link is removed itself, never followed, so nothing outside
// the directory is ever removed (docs/security.md, "Removal by handle").
import fs, { constants as C } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';

/** Deeper trees are refused: each level holds a descriptor open. */
export const MAX_DEPTH = 256;
/** Rounds of emptying a directory another process keeps filling before giving up. */
const ROUNDS = 8;

/**
 * Removes a directory govern's own parent directory holds (an archive's old tree), with what it
 * holds, by handle: the parent is opened once, and nothing below is reached by its path.
 */
export function removeTree(dir: string): void {
  const parent = fs.openSync(path.dirname(dir), C.O_RDONLY | C.O_DIRECTORY);
  try {
    removeTreeByHandle(`/proc/self/fd/${parent}`, path.basename(dir), dir);
  } finally {
    fs.closeSync(parent);
  }
}

/** Removes `name` of the held directory `inDir` (a /proc/self/fd path), a directory, with what it holds. */
export function removeTreeByHandle(inDir: string, name: string, shown: string): void {
  removeDirectoryAt(inDir, name, shown, 0);
}

function removeDirectoryAt(inDir: string, name: string, shown: string, depth: number): void {
  if (depth >= MAX_DEPTH) throw new UserError(`${shown} is more than ${MAX_DEPTH} directories deep: not removed`);
  for (let round = 0; ; round++) {
    const fd = openDirectory(`${inDir}/${name}`);
    if (fd === undefined) return unlinkAt(inDir, name, shown); // no longer a directory: whatever it is now goes itself
    try {
      const here = `/proc/self/fd/${fd}`;
      for (const entry of fs.readdirSync(here)) removeEntryAt(here, entry, `${shown}/${entry}`, depth + 1);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.rmdirSync(`${inDir}/${name}`);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code === 'ENOTDIR') return unlinkAt(inDir, name, shown);
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || round + 1 >= ROUNDS) throw e;
    }
  }
}

/** One entry of a held directory: unlinked (a link, never its target), or emptied and removed when a directory. */
function removeEntryAt(inDir: string, name: string, shown: string, depth: number): void {
  try {
    fs.unlinkSync(`${inDir}/${name}`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'EISDIR' && code !== 'EPERM') throw e;
    removeDirectoryAt(inDir, name, shown, depth);
  }
}

/** What was a directory and is something else now, removed itself; a directory again is another process at work. */
function unlinkAt(inDir: string, name: string, shown: string): void {
  try {
    fs.unlinkSync(`${inDir}/${name}`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'EISDIR' || code === 'EPERM') throw new UserError(`${shown} kept changing while govern removed it (another process is at work there): not removed`);
    throw e;
  }
}

/** The directory opened without following a link in its place; undefined when it is not a directory (now). */
function openDirectory(at: string): number | undefined {
  try {
    return fs.openSync(at, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENOENT') return undefined;
    throw e;
  }
}
