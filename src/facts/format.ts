// How `govern facts` prints facts: `name<TAB>value`, one per line, with a value's backslashes,
// newlines, carriage returns and tabs escaped so each fact stays on one line, and any other control
// character as `\xHH`, so a fact cannot drive the terminal.
import { terminalLine } from '../shared/terminal-text.js';

export function escapeFactValue(value: string): string {
  return terminalLine(value.replace(/[\\\n\r\t]/g, (ch) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[ch]!));
}

export function formatFactLines(facts: Map<string, string>): string {
  return [...facts.keys()]
    .sort()
    .map((name) => `${escapeFactValue(name)}\t${escapeFactValue(facts.get(name)!)}\n`)
    .join('');
}

export function formatFactJson(facts: Map<string, string>): string {
  const sorted = Object.fromEntries([...facts.keys()].sort().map((name) => [name, facts.get(name)!]));
  return JSON.stringify(sorted, null, 2) + '\n';
}
