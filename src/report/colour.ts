// Colours of the text report, as ANSI SGR codes: each status its own, diffs as `git diff` colours
// them. Used only when the output is a terminal or --color always says so (cli/colour-choice.ts).
export type Style = 'changed' | 'noop' | 'failed' | 'skipped' | 'notified' | 'unchanged' | 'diff-meta' | 'diff-hunk' | 'diff-old' | 'diff-new';

const SGR: Record<Style, string> = {
  changed: '33', // yellow
  noop: '35', // magenta
  failed: '1;31', // bold red
  skipped: '36', // cyan
  notified: '34', // blue
  unchanged: '32', // green
  'diff-meta': '1', // bold, as git's ---/+++ lines
  'diff-hunk': '36', // cyan, as git's @@ lines
  'diff-old': '31',
  'diff-new': '32',
};

export function paint(text: string, style: Style, on: boolean): string {
  return on && text !== '' ? `\x1b[${SGR[style]}m${text}\x1b[0m` : text;
}

/** The style of one line of a unified diff, if any; `---`/`+++` are file names only before the first hunk. */
export function diffStyle(line: string, inHunk: boolean): Style | undefined {
  if (line.startsWith('@@')) return 'diff-hunk';
  if (!inHunk) return line.startsWith('--- ') || line.startsWith('+++ ') ? 'diff-meta' : undefined;
  if (line.startsWith('-')) return 'diff-old';
  if (line.startsWith('+')) return 'diff-new';
  return undefined;
}
