// The one lookup of an executable in a list of directories: runners in the runners directories,
// commands on PATH. A regular file with an execute bit, first directory first.
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
