// The record of the last real run, for monitoring: its whole JSON report in VAR_DIR/last-run.json
// (/var/lib/govern by default), replaced atomically after every run that was not --noop, also one
// that stopped before applying anything. `govern status` reads it.
import fs from 'node:fs';
import path from 'node:path';
import { reportJson } from '../report/json.js';
import type { RunReport } from '../report/types.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';

export const LAST_RUN_FILE = 'last-run.json';

/** What the var directory says about the last real run. */
export type LastRun = { kind: 'none'; file: string } | { kind: 'unreadable'; file: string; reason: string } | { kind: 'report'; file: string; report: RunReport };

/**
 * Readable by all (0644), as monitoring agents rarely run as root: it holds what the run printed,
 * diffs included, as the journal does; a file whose content is secret says `show_diff = false`.
 */
export function writeLastRun(varDir: string, report: RunReport): void {
  const file = path.join(varDir, LAST_RUN_FILE);
  try {
    fs.mkdirSync(varDir, { recursive: true, mode: 0o755 });
    writeFileAtomic(file, reportJson(report), 0o644);
  } catch (e) {
    throw new UserError(`cannot record the run in ${file}: ${(e as Error).message}`);
  }
}

export function readLastRun(varDir: string): LastRun {
  const file = path.join(varDir, LAST_RUN_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none', file };
    return { kind: 'unreadable', file, reason: (e as Error).message };
  }
  try {
    const report = JSON.parse(text) as RunReport;
    if (typeof report.started_at !== 'string' || typeof report.summary?.duration_ms !== 'number' || !Array.isArray(report.errors)) {
      return { kind: 'unreadable', file, reason: 'not a govern run report' };
    }
    return { kind: 'report', file, report };
  } catch (e) {
    return { kind: 'unreadable', file, reason: (e as Error).message };
  }
}
