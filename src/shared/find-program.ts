// The one lookup of an executable in a list of directories: runners in the runners directories,
// commands on PATH. A regular file with an execute bit, first directory first. And the PATH the
// runners' commands are looked up in.
import fs from 'node:fs';
import path from 'node:path';

/** The absolute path of the first executable file `name` in `dirs`, or undefined. */
export function findExecutable(name: string, dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    if (dir === '') continue; // an empty PATH entry would mean the working directory: never wanted here
    const candidate = path.resolve(dir, name);
    try {
      // Most directories of PATH do not have it: no exception (and its stack) for each of those.
      const st = fs.statSync(candidate, { throwIfNoEntry: false });
      if (st?.isFile() && (st.mode & 0o111) !== 0) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // not reachable or not executable here
    }
  }
  return undefined;
}

/** The directories of a PATH value. */
export function pathDirs(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '');
}

/**
 * The environment with the sbin directories on PATH: the tools runners run (service, update-rc.d,
 * start-stop-daemon, mount, modprobe, runuser) live there, and a non-root PATH often lacks them.
 */
export function withSbinPath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dirs = (env.PATH ?? '').split(':').filter((d) => d !== '');
  for (const sbin of ['/usr/local/sbin', '/usr/sbin', '/sbin']) if (!dirs.includes(sbin)) dirs.push(sbin);
  if (!dirs.includes('/usr/bin')) dirs.push('/usr/bin', '/bin');
  return { ...env, PATH: dirs.join(':') };
}
