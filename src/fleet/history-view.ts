// `govern fleet history HOST` printed: a table of the host's last runs, oldest first, every published
// text escaped and cut to a cell (fleet-view.ts), or the same as JSON with the runs as published.
import { terminalLine } from '../shared/terminal-text.js';
import { cell, tableText } from './fleet-view.js';
import type { HostRun } from './host-record.js';
import type { HostHistory } from './run-history.js';

/** `reverted` is added to the run record by `govern revert` runs: shown when a host publishes it. */
function reverted(run: HostRun): string {
  const r = (run as HostRun & { reverted?: unknown }).reverted;
  if (r === undefined) return '-';
  if (typeof r === 'boolean') return r ? 'yes' : 'no';
  return typeof r === 'string' ? cell(r, 20) : 'invalid';
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
