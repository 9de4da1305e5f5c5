// Process checks for tests. A killed process whose parent is gone may stay a zombie here (PID 1
// of these machines does not always reap), so "alive" means present and not a zombie.
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
