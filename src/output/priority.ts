// Syslog priorities on govern's output when it goes to the journal (systemd sets JOURNAL_STREAM to
// the device and inode of the stream it connected): each line then starts with sd-daemon's `<N>`
// prefix, which journald strips and stores as the line's priority, so `journalctl -u govern -p
// warning` shows failures only. Elsewhere (a terminal, a pipe, a file) lines are written as they are.
import { pulledPaths } from '../shared/pulled-paths.js';
import { maskSecrets } from '../shared/secret-texts.js';
import fs from 'node:fs';
import type { NotificationStatus, ResourceStatus, RunSummary } from '../report/types.js';

/** syslog(3)'s levels, those govern uses. */
export const PRIORITY = { err: 3, warning: 4, notice: 5, info: 6, debug: 7 } as const;
export type Priority = keyof typeof PRIORITY;

/** True when fd is the stream JOURNAL_STREAM (`DEVICE:INODE`) names. */
export function isJournalStream(fd: number, env: NodeJS.ProcessEnv): boolean {
  const match = /^(\d+):(\d+)$/.exec(env.JOURNAL_STREAM ?? '');
  if (!match) return false;
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    return st.dev === BigInt(match[1]) && st.ino === BigInt(match[2]);
  } catch {
    return false;
  }
}

/** Each line of text with the prefix of its priority. */
export function withPriority(text: string, priority: Priority): string {
  return text.replace(/^(?=.)/gm, `<${PRIORITY[priority]}>`);
}

/** A writer for a stream: prefixes priorities when the stream is the journal. */
export function priorityWriter(stream: { write(text: string): unknown }, fd: number, env: NodeJS.ProcessEnv): (text: string, priority: Priority) => void {
  const journal = isJournalStream(fd, env);
  return (text, priority) => void stream.write(journal ? withPriority(pulledPaths(maskSecrets(text)), priority) : pulledPaths(maskSecrets(text)));
}

/** Failures are errors; changes, and what a failure skipped, notices; the rest information. */
export function statusPriority(status: ResourceStatus | NotificationStatus): Priority {
  switch (status) {
    case 'failed':
      return 'err';
    case 'changed':
    case 'sent':
    case 'skipped':
      return 'notice';
    default:
      return 'info';
  }
}

/** The summary of a run with failures is a warning; otherwise a notice. */
export function summaryPriority(summary: RunSummary): Priority {
  return summary.failed + summary.notifications_failed > 0 ? 'warning' : 'notice';
}
