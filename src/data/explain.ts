// `govern data` as text: a value per key, or with --explain every level of the search in order,
// with its file, whether it had the key and which level answered (or how the merge was built), as
// Puppet's `lookup --explain` shows it.
import { escapeFactValue } from '../facts/format.js';
import type { AttrValue } from '../shared/protocol.js';
import type { Explanation } from './lookup.js';
import type { MergeStrategy } from './merge.js';

/** A string as it is, any other value as JSON: the form `govern data` prints values in. */
export function valueText(value: AttrValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function formatValueLines(values: Map<string, AttrValue>): string {
  return [...values.entries()].map(([key, value]) => `${escapeFactValue(key)}\t${escapeFactValue(valueText(value))}\n`).join('');
}

/** Where a value came from, in words: `from common (FILE:LINE)`, or `merged ("unique") from a (FILE:LINE), b (...)`. */
export function answerText(strategy: MergeStrategy, levels: readonly { level: string; at: string }[]): string {
  const list = levels.map((l) => `${l.level} (${l.at})`).join(', ');
  return strategy === 'first' ? `from ${list}` : `merged ("${strategy}") from ${list}`;
}

export function formatExplanation(e: Explanation): string {
  const lines = [`${e.key} (${e.strategy === 'first' ? 'the first level that has it answers' : `merge "${e.strategy}"`}):`];
  const answering = new Set(e.result?.origins.map((o) => o.level));
  let answered = false;
  e.steps.forEach((step, i) => {
    const where = step.file === undefined ? 'no data file, skipped' : `${step.file}${step.line !== undefined ? `:${step.line}` : ''}`;
    let said: string;
    if (step.file === undefined) said = '';
    else if (!step.found) said = ': no such key';
    else {
      const used = answering.has(step.level) && !(e.strategy === 'first' && answered);
      if (used) answered = true;
      said = `: ${escapeFactValue(JSON.stringify(step.value))}${used ? (e.strategy === 'first' ? '  <- answers' : '  <- merged') : '  (not used: a more specific level answered)'}`;
    }
    lines.push(`  ${i + 1}. ${step.level}  ${where}${said}`);
  });
  if (e.result === undefined) lines.push('  => no level has this key');
  else lines.push(`  => ${escapeFactValue(JSON.stringify(e.result.value))} (from ${e.result.origins.map((o) => o.level).join(', ')})`);
  return lines.join('\n') + '\n';
}
