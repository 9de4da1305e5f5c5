// `govern test --base DIR`: the sandbox over another root than the host's (a debootstrapped Debian,
// an unpacked image). The base is checked before any sandbox (a directory, root's, not writable by
// others, with /usr/bin and /etc); govern and the Node.js running it stay the host's, shown read-only
// at their own paths inside, with the shared libraries of that Node the base lacks (docs/test.md).
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../shared/process.js';

/** The base's real path, or why it cannot be one. */
export function checkBase(dir: string): { base: string } | { problem: string } {
  const fail = (why: string) => ({ problem: `--base ${dir}: ${why}` });
  let base: string;
  let st: fs.Stats;
  try {
    base = fs.realpathSync(dir);
    st = fs.statSync(base);
  } catch (e) {
    return fail((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (e as Error).message);
  }
  if (!st.isDirectory()) return fail('not a directory');
  if (base === '/') return fail("the host's own root (govern test without --base runs over it)");
  if (st.uid !== 0) return fail(`owned by uid ${st.uid}, not root: another user's files would be run as root`);
  if ((st.mode & 0o022) !== 0) return fail(`writable by others than its owner (mode ${(st.mode & 0o7777).toString(8)})`);
  const missing = ['usr/bin', 'etc'].filter((p) => {
    try {
      return !fs.statSync(path.join(base, p)).isDirectory();
    } catch {
      return true;
    }
  });
  if (missing.length > 0) return fail(`does not look like a root file system: no ${missing.map((m) => `/${m}`).join(', ')} (make one with govern test --make-base debian:12 DIR)`);
  return { base };
}

/** The libraries `ldd` names for a program: `libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)`, and the loader. */
export function lddPaths(output: string): string[] {
  const found: string[] = [];
  for (const line of output.split('\n')) {
    const m = /^\s*(?:\S+ => )?(\/\S+) \(0x[0-9a-f]+\)\s*$/.exec(line);
    if (m && !found.includes(m[1])) found.push(m[1]);
  }
  return found;
}

/**
 * What of the host the sandbox shows read-only over a base, at the same paths: Node.js, the shared
 * libraries it needs that the base lacks (Debian's nodejs has its libnode), the built-in modules
 * Debian's build loads from /usr/share/nodejs, and govern's own root.
 */
export async function hostFilesForBase(base: string, node: string, governRoot: string): Promise<string[]> {
  const lacks = (p: string) => !fs.existsSync(path.join(base, p));
  const files = [node, governRoot];
  const ldd = await runCommand('ldd', [node], { timeoutMs: 30_000 });
  if (ldd.code === 0) files.push(...lddPaths(ldd.stdout).filter(lacks));
  if (fs.existsSync('/usr/share/nodejs') && lacks('/usr/share/nodejs')) files.push('/usr/share/nodejs');
  return files;
}
