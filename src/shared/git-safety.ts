// What every git command govern runs is given, and which repositories on this host it may run in.
// git runs programs a repository's own configuration names (core.fsmonitor, hooks, a promisor
// remote's upload-pack), so git works only in a repository the user it runs as owns, and with
// those settings off whatever the configuration says (docs/security.md, "Other users' repositories").
import fs from 'node:fs';
import path from 'node:path';

/**
 * `-c` settings for every git call: the command line outranks every configuration file. Hooks go
 * nowhere (/dev/null is no directory); no file system monitor; no `ext::` transport, which runs
 * a command; no submodule fetched or updated on the way; the signature checker is OpenSSH's own.
 */
export const GIT_SAFE_CONFIG: Readonly<Record<string, string>> = {
  'core.hooksPath': '/dev/null',
  'core.fsmonitor': 'false',
  'protocol.ext.allow': 'never',
  'submodule.recurse': 'false',
  'fetch.recurseSubmodules': 'false',
  'gpg.ssh.program': 'ssh-keygen',
};

/** Variables for every git call: no lazy fetch by a partial clone's promisor (git 2.45 and later read it). */
export const GIT_SAFE_ENV: Readonly<Record<string, string>> = { GIT_NO_LAZY_FETCH: '1' };

/** GIT_SAFE_CONFIG as git's arguments, before the subcommand. */
export function gitSafeArgs(extra: Record<string, string> = {}): string[] {
  return Object.entries({ ...GIT_SAFE_CONFIG, ...extra }).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/**
 * The directory a repository location names on this host (a path, or a file:// URL); undefined for
 * another host's (scheme://, or scp's host:path, as git itself tells them apart).
 */
export function localRepositoryPath(source: string): string | undefined {
  if (source.startsWith('file://')) return decodeURIComponent(source.slice('file://'.length));
  if (/^[A-Za-z][A-Za-z0-9+.-]*(:\/\/|::)/.test(source) || /^[^/]*:/.test(source)) return undefined;
  return path.resolve(source);
}

/**
 * Why git must not run in this repository as `uid` (`who` in messages): the directory (followed,
 * as git follows it) or its `.git` is another user's, or `.git` is a link or a gitfile that sends
 * git elsewhere. Undefined when all is uid's, or the directory is absent.
 */
export function foreignRepository(dir: string, uid: number, who: string): string | undefined {
  const top = fs.statSync(dir, { throwIfNoEntry: false });
  if (top === undefined) return undefined;
  const dotGit = path.join(dir, '.git');
  const gitDir = fs.lstatSync(dotGit, { throwIfNoEntry: false });
  const owner = top.uid !== uid ? { where: dir, st: top } : gitDir !== undefined && gitDir.uid !== uid ? { where: dotGit, st: gitDir } : undefined;
  if (owner !== undefined) return `${owner.where} is owned by uid ${owner.st.uid}, not by ${who}: git would run what its configuration and hooks name as ${who}`;
  if (gitDir !== undefined && !gitDir.isDirectory()) return `${dotGit} is ${gitDir.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}: govern runs git only in a git directory held in the checkout itself`;
  return undefined;
}
