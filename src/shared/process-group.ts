// A process group killed for good: SIGKILL, then a wait until nothing of it runs any more, so that
// govern may exit at once and leave nothing behind. A killed process stays in /proc for a moment
// (longer on a busy machine) before it is gone; one whose parent is gone may stay a zombie, which
// runs nothing and holds nothing, until init reaps it.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long to wait for a killed group at most: past it, the watcher's own SIGKILL is the backstop,
 * so a group not gone by then must stay watched (the caller keeps it so; false says so).
 */
const GONE_WITHIN_MS = 1000;
const POLL_MS = 5;

/** True once nothing of the group runs; false when some of it still did at the deadline. */
export async function killGroupForGood(pgid: number): Promise<boolean> {
  const deadline = Date.now() + GONE_WITHIN_MS;
  signal(pgid, 'SIGKILL');
  for (;;) {
    if (groupGone(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}

function signal(pgid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, name);
    return true;
  } catch {
    return false; // no such group any more
  }
}

/** No process of the group is left, zombies aside. */
function groupGone(pgid: number): boolean {
  if (!signal(pgid, 0)) return true;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile, or not a process
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return false;
  }
  return true;
}
