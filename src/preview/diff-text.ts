// `govern diff` as text: each group of identical changes once, with its hosts, then the summary.
import type { AttrValue } from '../shared/protocol.js';
import { summaryLine, type AttrChange, type ChangeGroup } from './compare.js';

const show = (value: AttrValue | undefined): string => (value === undefined ? '(not set)' : JSON.stringify(value));

function attrLines(a: AttrChange, added: boolean): string[] {
  if (added) return [`    ${a.key} = ${show(a.new)}`];
  if (a.diff) return [`    ${a.key}:`, ...a.diff.map((line) => `      ${line.replace(/\n$/, '')}`)];
  return [`    ${a.key}: ${show(a.old)} -> ${show(a.new)}`];
}

export function formatGroups(groups: ChangeGroup[], hostCount: number): string {
  if (groups.length === 0) return `no change on ${hostCount} host${hostCount === 1 ? '' : 's'}\n`;
  const lines: string[] = [];
  for (const g of groups) {
    lines.push(`${g.ref} ${g.change} on ${g.hosts.length} host${g.hosts.length === 1 ? '' : 's'}: ${g.hosts.join(', ')}`);
    for (const a of g.attrs) lines.push(...attrLines(a, g.change === 'added'));
  }
  lines.push('', `Summary (${hostCount} host${hostCount === 1 ? '' : 's'} planned):`, ...groups.map((g) => `  ${summaryLine(g)}`));
  return lines.join('\n') + '\n';
}
