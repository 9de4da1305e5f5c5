// Which processes run as a uid, from /proc: usermod and userdel refuse (or half-work) on a user
// with running processes, so the runners look first and say which ones.
import fs from 'node:fs';

export interface AccountProcess {
  pid: number;
  command: string;
}

/** Processes whose real, effective, saved or file-system uid is the given one. */
export function processesOf(uid: number): AccountProcess[] {
  const found: AccountProcess[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
    } catch {
      continue; // gone since the directory was read
    }
    const uids = /^Uid:\s+(.*)$/m.exec(status)?.[1].split(/\s+/).map(Number) ?? [];
    if (uids.includes(uid)) found.push({ pid: Number(entry), command: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?' });
  }
  return found;
}

/** "pid 123 (bash), pid 456 (sleep)", the first few. */
export function describeProcesses(processes: AccountProcess[], shown = 5): string {
  const listed = processes.slice(0, shown).map((p) => `pid ${p.pid} (${p.command})`);
  const more = processes.length > shown ? `, and ${processes.length - shown} more` : '';
  return listed.join(', ') + more;
}
