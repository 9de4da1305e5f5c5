// The fenced blocks of README.md and docs/*.md, each with its page, line and govern-docs marker, so
// that the docs test can build the trees they show, run their commands and compare their output
// (docs/testing.md, "The docs are tests").
import fs from 'node:fs';
import path from 'node:path';

export type Marker =
  | { kind: 'tree'; tree: string; file?: string }
  | { kind: 'run'; tree: string; exit: number }
  | { kind: 'output' }
  | { kind: 'check' }
  | { kind: 'tested'; by: string }
  | { kind: 'illustrative'; reason: string };

export interface Block {
  page: string; // relative to the checkout
  line: number; // of the opening fence
  lang: string;
  text: string; // the content, the fence's indentation removed, ending in a newline (or empty)
  marker?: Marker;
  problem?: string; // a marker that does not parse
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;
const MARKER = /^\s*<!--\s*govern-docs:\s*(.*?)\s*-->\s*$/;
const COMMENT = /^\s*<!--.*-->\s*$/;
const NAME = /^[a-z][a-z0-9_-]*$/;

/** The pages the docs test reads: README.md and docs/*.md. */
export function docPages(root: string): string[] {
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort();
  return ['README.md', ...docs.map((f) => `docs/${f}`)];
}

export function parseMarker(words: string): Marker | string {
  const illustrative = /^illustrative:\s*(.+)$/.exec(words);
  if (illustrative) return { kind: 'illustrative', reason: illustrative[1] };
  const [kind, ...args] = words.split(/\s+/);
  if (kind === 'output' && args.length === 0) return { kind: 'output' };
  if (kind === 'check' && args.length === 0) return { kind: 'check' };
  if (kind === 'tested' && args.length === 1) return { kind: 'tested', by: args[0] };
  if (kind === 'tree' && (args.length === 1 || args.length === 2) && NAME.test(args[0])) {
    return { kind: 'tree', tree: args[0], file: args[1] };
  }
  if (kind === 'run' && args.length >= 1 && NAME.test(args[0])) {
    const exit = args.length === 2 ? /^exit=(\d+)$/.exec(args[1]) : null;
    if (args.length === 1 || exit) return { kind: 'run', tree: args[0], exit: exit ? Number(exit[1]) : 0 };
  }
  return `"${words}" is not a govern-docs marker (tree NAME [PATH], run NAME [exit=N], output, check, tested FILE, illustrative: REASON)`;
}

/** Every fenced block of one page, in order. */
export function pageBlocks(root: string, page: string): Block[] {
  const lines = fs.readFileSync(path.join(root, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close && close[2].startsWith(fence[0]) && close[2].length >= fence.length && close[3] === '') break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    const block: Block = { page, line: i + 1, lang, text: body.length ? `${body.join('\n')}\n` : '' };
    // The marker is one of the comment lines right above the fence (other tests' markers may sit
    // between it and the fence).
    for (let k = i - 1; k >= 0 && COMMENT.test(lines[k]); k--) {
      const m = MARKER.exec(lines[k]);
      if (!m) continue;
      const marker = parseMarker(m[1]);
      if (typeof marker === 'string') block.problem = marker;
      else block.marker = marker;
      break;
    }
    blocks.push(block);
    i = j;
  }
  return blocks;
}

/** The file a tree block is: its marker's PATH, or the path its first line's comment names. */
export function treeFile(block: Block): string | undefined {
  if (block.marker?.kind === 'tree' && block.marker.file) return block.marker.file;
  const first = /^(?:#|\/\/)\s*([\w./-]+?):?(?:\s|$)/.exec(block.text.split('\n')[0]);
  return first && /[./]/.test(first[1]) ? first[1] : undefined;
}

/** A transcript's commands (`$ ` lines) with the output shown under each; none for a script. */
export function transcript(text: string): { command: string; output: string }[] {
  const steps: { command: string; output: string[] }[] = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else if (steps.length) steps[steps.length - 1].output.push(line);
    else return [];
  }
  return steps.map((s) => ({ command: s.command, output: s.output.length ? `${s.output.join('\n')}\n` : '' }));
}
