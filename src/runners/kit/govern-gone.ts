// Whether the govern that started a runner is gone. govern names itself in GOVERN_PID: a runner
// not below that pid was orphaned (govern was killed, even before the runner first looked) and
// starts nothing. Reading the parent once at start is not enough: on a busy machine govern can be
// SIGKILLed before the runner runs its first line, and the runner then takes init for its parent.
import fs from 'node:fs';
import { GOVERN_PID_ENV } from '../../shared/protocol.js';

/** How far up the tree to look for govern: a runner is govern's child, or a wrapper's. */
const MAX_DEPTH = 32;

/** A check, cheap enough to ask before every command: true once govern is gone. */
export function governGoneCheck(env: NodeJS.ProcessEnv): () => boolean {
  const given = env[GOVERN_PID_ENV];
  if (given !== undefined && /^[1-9][0-9]*$/.test(given)) {
    const govern = Number(given);
    return () => !below(govern);
  }
  // Started by something else (a test, a user's shell): its parent at start stands for govern.
  const parent = parentOf(process.pid);
  return () => parent !== undefined && parentOf(process.pid) !== parent;
}

/** This process is `ancestor` or one of its descendants, now. */
function below(ancestor: number): boolean {
  let pid: number | undefined = process.pid;
  for (let depth = 0; depth < MAX_DEPTH && pid !== undefined && pid > 0; depth++) {
    if (pid === ancestor) return true;
    pid = parentOf(pid);
  }
  return false;
}

/** A process's parent pid as it is now (process.ppid is read once, at start). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}
