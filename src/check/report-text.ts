// A check's report as text (`file:line:column: message`, as compilers and govern's errors print a
// problem) and as JSON (the report itself: what an editor or a script reads).
import { formatProblem } from '../shared/errors.js';
import type { CheckReport } from './check-tree.js';
import type { CheckProblem } from './locate.js';

export function checkText(report: CheckReport): string {
  const lines = report.problems.map((p) => formatProblem({ ...p, message: p.hosts && report.hosts && report.hosts.length > 1 ? `${p.message} (for ${p.hosts.join(', ')})` : p.message }));
  for (const [file, names] of Object.entries(report.needsFacts ?? {})) lines.push(`${file}: rendered with placeholder facts; it reads ${names.join(', ')} (give --facts for the hosts' own)`);
  const files = new Set(report.problems.map((p) => p.file ?? '')).size;
  const checked = `${report.files.length} ${report.files.length === 1 ? 'file' : 'files'} checked`;
  lines.push(report.problems.length === 0 ? `${checked}: no problem` : `${count(report.problems)} in ${files} ${files === 1 ? 'file' : 'files'} (${checked})`);
  return lines.join('\n') + '\n';
}

function count(problems: CheckProblem[]): string {
  return problems.length === 1 ? '1 problem' : `${problems.length} problems`;
}

export function checkJson(report: CheckReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}
