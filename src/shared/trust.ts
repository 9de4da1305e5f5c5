// What govern trusts, in one place (docs/security.md): the runner cache, the programs it runs as
// root (runners, executable facts) and the allowed signers of `govern pull` are trusted only when no one but root or the user running
// govern can change them: the file and every directory above it. Each is checked through an open
// handle (O_NOFOLLOW, then /proc/self/fd/N/NAME for the next component), so what is checked is what
// is there, and a link put in place after the check leads nowhere new: every directory on the way
// can only be changed by those trusted.
import fs from 'node:fs';
import path from 'node:path';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

function runningUid(): number | undefined {
  return process.getuid?.();
}

/** Owned by the running user and not writable by group or others: a private cache directory or entry. */
export function ownedAndPrivate(st: fs.Stats): boolean {
  return st.uid === (runningUid() ?? st.uid) && (st.mode & 0o022) === 0;
}

/** A directory opened without following a link in its place, with its status taken through the handle. */
export interface DirectoryHandle {
  fd: number;
  stat: fs.Stats;
  /** The path of an entry, reached through the open directory rather than by its name. */
  at(name: string): string;
}

/** Opens `dir` (not through a link) and checks that /proc/self/fd reaches it; undefined when it cannot. */
export function openDirectoryHandle(dir: string): DirectoryHandle | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    const stat = fs.fstatSync(fd);
    const through = fs.statSync(`/proc/self/fd/${fd}`);
    if (through.dev !== stat.dev || through.ino !== stat.ino) throw new Error('not reachable through /proc/self/fd');
    const base = `/proc/self/fd/${fd}`;
    return { fd, stat, at: (name) => `${base}/${name}` };
  } catch {
    if (fd !== undefined) fs.closeSync(fd);
    return undefined;
  }
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** Why a file or directory on the way to code govern runs is not to be trusted, with the fix; or undefined. */
function untrusted(st: fs.Stats, at: string, isLast: boolean): string | undefined {
  const uid = runningUid();
  const owners = uid === undefined || uid === 0 ? 'root' : `root or uid ${uid}`;
  if (st.uid !== 0 && st.uid !== uid) return `${at} is owned by uid ${st.uid} (mode ${octal(st.mode)}), not by ${owners} (chown root ${at}, if its content is what you mean to run)`;
  // A world-writable directory with the sticky bit (/tmp) lets no one else rename or remove what
  // root owns in it: the next component is checked on its own.
  const sticky = !isLast && (st.mode & 0o1000) !== 0;
  if ((st.mode & 0o022) !== 0 && !sticky) return `${at} is writable by ${(st.mode & 0o002) !== 0 ? 'anyone' : 'its group'} (mode ${octal(st.mode)}; chmod go-w ${at})`;
  if (isLast && !st.isFile()) return `${at} is not a regular file`;
  return undefined;
}

/** As the kernel allows (ELOOP past 40 links). */
const MAX_LINKS = 40;

/**
 * Checks that `file`, a program govern is about to run as the user running it, can be changed only
 * by root or that user: the file and every directory from / down to it, and every symbolic link on
 * the way (systemd's CHASE_SAFE rule: a link counts only when it is owned by root or that user, in a
 * directory only they can change). Returns the resolved path to run, or why it is refused, in
 * words that say how to fix it.
 */
export function trustedProgram(file: string): { path: string } | { refused: string } {
  return trustedPath(file, (why) => `refusing to run ${file}: ${why}; a program govern runs must be owned by root (or the user running govern) and writable by no one else, and so must every directory above it`);
}

/**
 * The same rule for a file that decides what govern does as root without being run (`what`: "the
 * allowed signers file"): its refusal says so.
 */
export function trustedFile(file: string, what: string): { path: string } | { refused: string } {
  return trustedPath(file, (why) => `refusing ${what} ${file}: ${why}; it must be owned by root (or the user running govern) and writable by no one else, and so must every directory above it`);
}

/**
 * A file that holds a credential (a NATS seed): the rule of trustedFile, and readable by its owner
 * alone, as ssh holds a private key (mode 0600 or stricter): a seed others could read is theirs too.
 */
export function trustedSecret(file: string, what: string): { path: string } | { refused: string } {
  const trusted = trustedFile(file, what);
  if ('refused' in trusted) return trusted;
  const mode = fs.statSync(trusted.path).mode;
  if ((mode & 0o077) !== 0) return { refused: `refusing ${what} ${file}: it is readable by ${(mode & 0o004) !== 0 ? 'anyone' : 'its group'} (mode ${octal(mode)}; chmod go= ${file}), and whoever can read it can use it` };
  return trusted;
}

function trustedPath(file: string, refusal: (why: string) => string): { path: string } | { refused: string } {
  // Not path.resolve: ".." after a link means the link target's parent, as the kernel reads it.
  const pending = (file.startsWith('/') ? file : `${process.cwd()}/${file}`).split('/').filter((n) => n !== '' && n !== '.');
  let fd: number | undefined;
  let at = '/';
  let links = 0;
  const refused = (why: string) => ({ refused: refusal(why) });
  try {
    fd = fs.openSync('/', O_RDONLY | O_DIRECTORY);
    let why = untrusted(fs.fstatSync(fd), at, pending.length === 0);
    if (why !== undefined) return refused(why);
    while (pending.length > 0) {
      const name = pending.shift()!;
      const entry = `/proc/self/fd/${fd}/${name}`;
      const next = at === '/' ? `/${name}` : `${at}/${name}`;
      if (name !== '..' && fs.lstatSync(entry).isSymbolicLink()) {
        why = untrustedLink(fs.lstatSync(entry), next);
        if (why !== undefined) return refused(why);
        if (++links > MAX_LINKS) return refused(`${file} has too many levels of symbolic links`);
        const target = fs.readlinkSync(entry);
        pending.unshift(...target.split('/').filter((n) => n !== '' && n !== '.'));
        if (target.startsWith('/')) {
          fs.closeSync(fd);
          fd = undefined;
          fd = fs.openSync('/', O_RDONLY | O_DIRECTORY);
          at = '/';
        }
        continue;
      }
      // O_NOFOLLOW: a link put here since the look above is refused, not followed.
      const opened = fs.openSync(entry, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (pending.length > 0 ? O_DIRECTORY : 0));
      fs.closeSync(fd);
      fd = opened;
      at = name === '..' ? path.dirname(at) : next;
      why = untrusted(fs.fstatSync(fd), at, pending.length === 0);
      if (why !== undefined) return refused(why);
    }
    return { path: at };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return refused(err.code === 'ELOOP' ? `a component of ${at} became a symbolic link while it was checked` : `${at} cannot be checked: ${err.message}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function untrustedLink(st: fs.Stats, at: string): string | undefined {
  const uid = runningUid();
  if (st.uid === 0 || st.uid === uid) return undefined;
  return `the symbolic link ${at} is owned by uid ${st.uid}, who could point it elsewhere (replace it with a link owned by root)`;
}
