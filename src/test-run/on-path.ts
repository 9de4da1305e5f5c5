// Where a program the sandbox needs is found, as a shell would find it.
import fs from 'node:fs';
import path from 'node:path';

/** A program on PATH, or undefined. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(':')) {
    if (dir === '') continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}
