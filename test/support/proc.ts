// Process checks for tests. A killed process whose parent is gone may stay a zombie here (PID 1
// of these machines does not always reap), so "alive" means present and not a zombie.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

export function processAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Pids of the live processes whose environment holds `NAME=value` (a run's marker). */
export function processesWithEnv(name: string, value: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`${name}=${value}`) && processAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Two processes that keep both cores busy until the function returned is called (call it in a finally). */
export function busyCores(): () => void {
  const loops = [1, 2].map(() => spawn('/bin/sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
  return () => loops.forEach((loop) => loop.kill('SIGKILL'));
}
