// Starting a program in a process group of its own that the watcher (child-guard.ts) knows before
// the program runs. Node tells us a child's pid only once spawn() returns, after the exec: a
// starter killed between that exec and its "+PGID" line to the watcher would leave the program
// running, unknown to anyone. So, while a watcher is active, the child is a /bin/sh that waits on
// one more pipe for a byte the starter writes once the watcher has the line, then execs the
// program; a starter that dies first closes the pipe, and the sh exits having run nothing
// (docs/security.md, "No orphans"). A program that is itself `/bin/sh -c SCRIPT` gets the wait
// as the start of its script's first line: no second sh.
import { spawn, type ChildProcess, type SpawnOptions, type StdioPipe, type StdioNull } from 'node:child_process';
import path from 'node:path';
import type { Socket } from 'node:net';
import { readyToWatch, watchGroup, watching } from './child-guard.js';
import { findExecutable, pathDirs } from './find-program.js';

const SHELL = '/bin/sh';

export interface WatchedSpawnOptions extends Omit<SpawnOptions, 'stdio'> {
  stdio: Array<StdioPipe | StdioNull | number>;
}

/** spawn(), detached, with the child's group known to the watcher before its program runs. */
export function spawnWatched(command: string, args: readonly string[], options: WatchedSpawnOptions): ChildProcess {
  readyToWatch();
  const spawnOptions = { ...options, detached: true };
  // A program that cannot start is spawned as it is, so that spawn's own error (ENOENT, EACCES) reports it.
  if (!watching() || !startable(command, options)) {
    const child = spawn(command, [...args], spawnOptions);
    watchGroup(child.pid);
    return child;
  }
  const fd = options.stdio.length;
  const gate = `read -r _ <&${fd} || exit 1; exec ${fd}<&-; `;
  const argv = command === SHELL && args[0] === '-c' && args.length >= 2 ? ['-c', gate + args[1], ...args.slice(2)] : ['-c', `${gate}exec "$@"`, 'sh', command, ...args];
  const child = spawn(SHELL, argv, { ...spawnOptions, stdio: [...options.stdio, 'pipe'] });
  const door = child.stdio[fd] as Socket | null;
  door?.on('error', () => undefined);
  watchGroup(child.pid, () => door?.end('\n'));
  return child;
}

/** Whether exec would find `command` an executable file, as spawn looks it up. */
function startable(command: string, options: WatchedSpawnOptions): boolean {
  if (command.includes('/')) return findExecutable(command, [options.cwd?.toString() ?? process.cwd()]) !== undefined;
  return findExecutable(command, pathDirs(options.env ?? process.env).map((dir) => path.resolve(dir))) !== undefined;
}
