// An archive extracted beside its target, checked, then renamed into place: the target is the old
// tree or the new one, never a part. Entries that would land outside it (absolute names, ".."
// components, symbolic links pointing out), device nodes, FIFOs and sockets are refused, and
// nothing of the archive is kept then; setuid and setgid bits are taken off. The extraction happens
// in a directory only root can enter, so nothing refused is ever reachable by another user.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { act, query, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { describeFileKind } from '../../shared/file-kind.js';
import { removeTree } from '../lib/remove-tree.js';
import { escapingEntry, MARKER, markerContent, type ArchiveFormat, type ArchiveProperties } from './properties.js';

const TIMEOUT_MS = 600_000;

/** The entry names the archive lists. */
async function listEntries(context: ProviderContext, format: ArchiveFormat, file: string, shown: string): Promise<string[]> {
  const argv = format === 'zip' ? ['unzip', '-Z1', '--', file] : ['tar', '-t', '-f', file];
  const r = await query(context, argv, { timeoutMs: TIMEOUT_MS });
  if (r.code !== 0) throw new UserError(`cannot read the archive ${shown} as ${format}: ${(r.stderr.trim().split('\n').pop() ?? '') || `exit ${r.code}`}`);
  return r.stdout.split('\n').filter((n) => n !== '');
}

/** Lists `file` (the held archive) and refuses an entry that would land outside the target; noop checks this too. */
export async function checkEntries(context: ProviderContext, p: ArchiveProperties, file: string): Promise<void> {
  const escaping = (await listEntries(context, p.format, file, p.source)).find(escapingEntry);
  if (escaping !== undefined) throw new UserError(`${p.source}: entry "${escaping}" would land outside ${p.target}: nothing extracted`);
}

/** A temporary name beside the target, hidden, unique to this run. */
export function besideTarget(target: string, what: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.govern-${what}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
}

export async function extractReplacing(context: ProviderContext, p: ArchiveProperties, file: string): Promise<void> {
  await checkEntries(context, p, file);
  const temp = besideTarget(p.target, 'extract');
  fs.mkdirSync(temp, { mode: 0o700 });
  try {
    const argv = p.format === 'zip' ? ['unzip', '-q', '--', file, '-d', temp] : ['tar', '-x', '--no-same-owner', '-f', file, '-C', temp];
    await act(context, argv, { timeoutMs: TIMEOUT_MS });
    refuseLinksOut(temp, p);
    refuseSpecialFiles(temp, p);
    // The archive may hold an entry of the marker's name (a link, say): it goes, and the marker is made new.
    fs.rmSync(path.join(temp, MARKER), { recursive: true, force: true });
    fs.writeFileSync(path.join(temp, MARKER), markerContent(p), { mode: 0o644, flag: 'wx' });
    if (p.owner !== undefined || p.group !== undefined) {
      await act(context, ['chown', '-R', '-h', '--', `${p.owner ?? ''}${p.group !== undefined ? `:${p.group}` : ''}`, temp], { timeoutMs: TIMEOUT_MS });
    }
    fs.chmodSync(temp, 0o755);
    swapInto(temp, p.target);
  } finally {
    removeTree(temp);
  }
}

/**
 * A device node would give `owner` the raw device, a FIFO or socket has no place in a tree of
 * files: refused. A setuid or setgid bit would make a program run as root (or a group): taken off.
 */
function refuseSpecialFiles(root: string, p: ArchiveProperties): void {
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      const st = fs.lstatSync(full);
      if (!st.isFile() && !st.isDirectory()) throw new UserError(`${p.source}: entry "${path.relative(root, full)}" is ${describeFileKind(st)}: an archive extracts files, directories and links only; nothing extracted`);
      if ((st.mode & 0o6000) !== 0 && st.isFile()) fs.chmodSync(full, st.mode & 0o1777);
      if (st.isDirectory()) walk(full);
    }
  };
  walk(root);
}

/**
 * Every symbolic link of the tree must point inside it, by a relative path, and resolve inside it as
 * the kernel resolves it: a link's text can stay inside while a link it passes through leads out
 * (`d -> .` then `e -> d/x/../..`). A link to nothing is refused too, since what it names could
 * come to exist outside.
 */
function refuseLinksOut(root: string, p: ArchiveProperties): void {
  const realRoot = fs.realpathSync.native(root);
  const inside = (resolved: string, top: string) => resolved === top || resolved.startsWith(`${top}/`);
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const to = fs.readlinkSync(full);
        const real = realOrUndefined(full);
        if (path.isAbsolute(to) || !inside(path.resolve(path.dirname(full), to), root) || real === undefined || !inside(real, realRoot)) {
          throw new UserError(`${p.source}: entry "${path.relative(root, full)}" links outside ${p.target} (to "${to}")${real === undefined ? ', or to nothing' : ''}: nothing extracted`);
        }
      } else if (entry.isDirectory()) walk(full);
    }
  };
  walk(root);
}

function realOrUndefined(file: string): string | undefined {
  try {
    // native: the C library resolves ".." after a link as the kernel does; fs.realpathSync folds it first.
    return fs.realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** The new tree renamed into place; an old one moved aside first, then removed. */
function swapInto(temp: string, target: string): void {
  const st = fs.lstatSync(target, { throwIfNoEntry: false });
  if (st === undefined) {
    fs.renameSync(temp, target);
    return;
  }
  const old = besideTarget(target, 'old');
  fs.renameSync(target, old);
  try {
    fs.renameSync(temp, target);
  } catch (e) {
    fs.renameSync(old, target);
    throw e;
  }
  removeTree(old); // the old tree was owner's to change: removed by handle, never following a link swapped in
}
