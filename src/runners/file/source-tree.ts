// Reading a `source` directory for recurse = true: every entry, reached through its directory held
// open (never by its name again), links in the tree read as links and never followed. The source's
// own path is resolved by chase, as a source file's is (docs/file.md, "Symbolic links on the way").
import fs, { constants as C } from 'node:fs';
import { chase } from '../../shared/chase.js';
import { describeFileKind } from '../../shared/file-kind.js';
import { UserError } from '../../shared/errors.js';

/** One entry of the tree, by its path relative to the source ("conf.d/a.conf"), parents first. */
export type SourceEntry =
  | { rel: string; type: 'directory' }
  | { rel: string; type: 'file'; bytes: Buffer }
  | { rel: string; type: 'link'; target: string };

const O_PATH = 0o10000000;

/** The tree under a source directory, in name order, each directory before what it holds. */
export function readSourceTree(source: string): SourceEntry[] {
  const chased = chase(source, { followLast: true });
  if (chased.kind !== 'found') throw new UserError(`source directory ${source} does not exist${chased.kind === 'not-directory' ? ` (${chased.at} is not a directory)` : ''}`);
  let fd: number;
  try {
    fd = fs.openSync(`${chased.dir.proc}/${chased.name}`, O_PATH | C.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`source directory ${source} does not exist`);
    throw e;
  } finally {
    chased.dir.close();
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isDirectory()) throw new UserError(`source ${source} is ${st.isFile() ? 'a regular file' : describeFileKind(st)}, not a directory: recurse = true copies a directory tree`);
    const entries: SourceEntry[] = [];
    walk(fd, '', source, entries);
    return entries;
  } finally {
    fs.closeSync(fd);
  }
}

function walk(dirFd: number, prefix: string, source: string, out: SourceEntry[]): void {
  const at = `/proc/self/fd/${dirFd}`;
  const names = fs.readdirSync(at).sort();
  for (const name of names) {
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    const st = fs.lstatSync(`${at}/${name}`);
    if (st.isSymbolicLink()) {
      out.push({ rel, type: 'link', target: fs.readlinkSync(`${at}/${name}`) });
    } else if (st.isDirectory()) {
      out.push({ rel, type: 'directory' });
      const sub = fs.openSync(`${at}/${name}`, O_PATH | C.O_DIRECTORY | C.O_NOFOLLOW);
      try {
        walk(sub, rel, source, out);
      } finally {
        fs.closeSync(sub);
      }
    } else if (st.isFile()) {
      const fd = fs.openSync(`${at}/${name}`, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
      try {
        const fst = fs.fstatSync(fd);
        if (!fst.isFile()) throw new UserError(`source ${source}/${rel} changed while govern was reading it; nothing was written, run again`);
        out.push({ rel, type: 'file', bytes: fs.readFileSync(fd) });
      } finally {
        fs.closeSync(fd);
      }
    } else {
      throw new UserError(`source ${source}/${rel} is ${describeFileKind(st)}; recurse = true copies only regular files, directories and symbolic links`);
    }
  }
}
