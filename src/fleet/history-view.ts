// `govern fleet history HOST` printed: a table of the host's last runs, oldest first, every published
// text escaped and cut to a cell (fleet-view.ts), or the same as JSON with the runs as published.
import { terminalLine } from '../shared/terminal-text.js';
import { cell, tableText } from './fleet-view.js';
import type { HostRun } from './host-record.js';
import type { HostHistory } from './run-history.js';

/** A run that returned to the last good commit (docs/rollout.md) says from which to which. */
function reverted(run: HostRun): string {
  const r = run.reverted;
  return r === undefined ? '-' : cell(`${r.from.slice(0, 7)}->${r.to.slice(0, 7)}`, 20);
}

export function historyTable(h: HostHistory): string {
  if (h.entries.length === 0) return `${terminalLine(`no run of ${h.host} is in the fleet's history`)}\n`;
  const table = [['ENDED', 'RESULT', 'CHANGED', 'FAILED', 'RESOURCES', 'COMMIT', 'REVERTED', 'VERSION']];
  const notes: string[] = [];
  for (const e of h.entries) {
    const run = e.run;
    if (run === undefined) {
      table.push([e.stored_at, 'invalid', '-', '-', '-', '-', '-', '-']);
      notes.push(`${e.stored_at}: ${cell(e.problem ?? '', 200)}`);
      continue;
    }
    const s = run.summary;
    table.push([
      cell(run.ended_at, 30),
      run.success ? 'ok' : 'failed',
      String(s.changed),
      String(s.failed),
      String(s.resources),
      run.commit === undefined ? '-' : cell(run.commit.slice(0, 12)),
      reverted(run),
      cell(run.govern_version, 20),
    ]);
  }
  return tableText(table, notes);
}

export function historyJson(h: HostHistory): string {
  return `${JSON.stringify(h, null, 2)}\n`;
}
