// Where a position stands in a file of govern's HCL as written, before any template renders and
// while it is being typed: which blocks enclose it, which attribute it gives a value to, whether it
// is inside a string or a `{{...}}` expression. Tolerant by design (a string or a block not closed
// yet is the usual state of a file in an editor): it reads up to the position and never fails.

export interface BlockFrame {
  /** The block's type word (a runner, `module`, `variable`), or undefined for an object value `{ ... }`. */
  type?: string;
  labels: string[];
  /** 0-based line of the header. */
  line: number;
}

export interface Place {
  /** The enclosing blocks, outermost first. */
  blocks: BlockFrame[];
  /** The attribute whose value the position is in (`after` in `after = ["pkg:`), if any. */
  key?: string;
  /** Inside a quoted string: its text from the opening quote to the position. */
  string?: string;
  /** Inside a `{{...}}` expression: its text from `{{` to the position. */
  template?: string;
  /** The word the position ends (letters, digits, `_`, `-`, `.`, `/`, `:`), for completion's range. */
  word: string;
  /** Only blanks and a word stand before the position on its line: a key (or a block type) goes here. */
  atLineStart: boolean;
}

const WORD_CHAR = /[\p{ID_Continue}\-./:]/u;

/** The place of the 0-based offset in text. */
export function placeAt(text: string, offset: number): Place {
  const blocks: (BlockFrame | { list: true })[] = [];
  let key: string | undefined;
  let lineStart = 0;
  let line = 0;
  let string: number | undefined;
  let template: number | undefined;
  let heredoc: string | undefined;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      lineStart = i + 1;
      if (heredoc !== undefined && text.slice(lineStart, text.indexOf('\n', lineStart) < 0 ? text.length : text.indexOf('\n', lineStart)).trim() === heredoc) {
        heredoc = undefined;
        key = undefined;
      }
      if (string !== undefined && template === undefined) string = undefined; // a string does not go on past its line
      if (template === undefined && string === undefined && heredoc === undefined && !inList(blocks)) key = undefined;
      continue;
    }
    if (template !== undefined) {
      if (c === '}' && text[i + 1] === '}') {
        template = undefined;
        i++;
      }
      continue;
    }
    if (c === '{' && text[i + 1] === '{') {
      template = i;
      i++;
      continue;
    }
    if (heredoc !== undefined) continue;
    if (string !== undefined) {
      if (c === '\\') i++;
      else if (c === '"') string = undefined;
      continue;
    }
    if (c === '"') string = i;
    else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const end = text.indexOf('\n', i);
      if (end < 0 || end >= offset) return { blocks: frames(blocks), word: '', atLineStart: false };
      i = end - 1;
    } else if (c === '<' && text[i + 1] === '<') {
      const m = /^<<-?([A-Za-z_][\w-]*)\n/.exec(text.slice(i, i + 80));
      if (m) {
        heredoc = m[1];
        i += m[0].length - 2;
      }
    } else if (c === '=' && key === undefined) {
      const m = /([\p{ID_Start}_][\p{ID_Continue}-]*)\s*$/u.exec(text.slice(lineStart, i));
      if (m) key = m[1];
    } else if (c === '[' || c === '(') blocks.push({ list: true });
    else if (c === ']' || c === ')') popList(blocks);
    else if (c === '{') {
      if (key !== undefined) blocks.push({ list: true });
      else blocks.push(header(text.slice(lineStart, i), line));
    } else if (c === '}') {
      const top = blocks.pop();
      if (top && 'list' in top && !inList(blocks)) key = undefined;
    }
  }
  const before = text.slice(lineStart, offset);
  const word = /[\p{ID_Continue}\-./:]*$/u.exec(before)?.[0] ?? '';
  const place: Place = { blocks: frames(blocks), word, atLineStart: template === undefined && string === undefined && heredoc === undefined && key === undefined && /^\s*[\p{ID_Continue}-]*$/u.test(before) };
  if (key !== undefined) place.key = key;
  if (string !== undefined) place.string = text.slice(string + 1, offset);
  if (template !== undefined) place.template = text.slice(template, offset);
  return place;
}

/** The word around a 0-based offset (for hover and definition), with its start offset. */
export function wordAt(text: string, offset: number): { word: string; start: number } {
  let start = offset;
  let end = offset;
  while (start > 0 && WORD_CHAR.test(text[start - 1])) start--;
  while (end < text.length && WORD_CHAR.test(text[end])) end++;
  return { word: text.slice(start, end), start };
}

/** The quoted string around a 0-based offset on its line, without its quotes, if the offset is inside one. */
export function stringAt(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset);
  const quoted = /"((?:[^"\\\n]|\\.)*)"/g;
  for (let m = quoted.exec(text.slice(lineStart, lineEnd)); m; m = quoted.exec(text.slice(lineStart, lineEnd))) {
    if (lineStart + m.index < offset && offset < lineStart + m.index + m[0].length) return m[1];
  }
  return undefined;
}

/** The block headers of a text at its top level (`file "/etc/motd" {`), for symbols when nothing planned. */
export function topBlocks(text: string): BlockFrame[] {
  const found: BlockFrame[] = [];
  text.split('\n').forEach((l, line) => {
    const m = /^([\p{ID_Start}_][\p{ID_Continue}-]*)((?:\s+"[^"\n]*")*)\s*\{/u.exec(l);
    if (m) found.push({ type: m[1], labels: [...m[2].matchAll(/"([^"\n]*)"/g)].map((x) => x[1]), line });
  });
  return found;
}

function header(text: string, line: number): BlockFrame {
  const m = /([\p{ID_Start}_][\p{ID_Continue}-]*)((?:\s+"(?:[^"\\]|\\.)*")*)\s*$/u.exec(text);
  if (!m) return { labels: [], line };
  return { type: m[1], labels: [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]), line };
}

function inList(blocks: (BlockFrame | { list: true })[]): boolean {
  return blocks.length > 0 && 'list' in blocks[blocks.length - 1];
}

function popList(blocks: (BlockFrame | { list: true })[]): void {
  if (inList(blocks)) blocks.pop();
}

function frames(blocks: (BlockFrame | { list: true })[]): BlockFrame[] {
  return blocks.filter((b): b is BlockFrame => !('list' in b) && b.type !== undefined);
}
