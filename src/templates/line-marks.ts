// Rendering moves a state file's lines (an {{#each}} repeats some, an {{#if}} drops others), but a
// message must name the line the user wrote. So the template's own text carries invisible marks of
// its source lines through the rendering: each statement is preceded by the mark of the line it
// starts on, and each line of literal text by the mark of its line. After rendering, the marks
// are taken out again: a rendered line that starts with a mark came from that source line; one
// that does not was produced by a helper or a value (several lines from one {{...}}).

const OPEN = '\uE000';
const CLOSE = '\uE001';
const ANY_MARK = /\uE000\d+\uE001/g;

const mark = (line: number) => `${OPEN}${line}${CLOSE}`;

/** Marks the template's statements with their source lines; false (nothing marked) when the source holds the mark characters itself. */
export function markSourceLines(ast: hbs.AST.Program, source: string): boolean {
  if (source.includes(OPEN)) return false;
  markProgram(ast);
  return true;
}

/**
 * Handlebars runs its whitespace control again on the marked tree when it compiles it. A mark gets
 * its own text as its "original" (what that pass reads), so it is never taken for blank space; and
 * an {{else if}} chain (a program holding only the chained block) is left as it is.
 */
function markProgram(program: hbs.AST.Program | undefined): void {
  if (!program) return;
  const chained = (program as hbs.AST.Program & { chained?: boolean }).chained === true;
  const body: hbs.AST.Statement[] = [];
  for (const statement of program.body) {
    if (statement.type === 'ContentStatement') {
      const content = statement as hbs.AST.ContentStatement;
      if (content.value !== '') content.value = markContent(content);
      body.push(content);
      continue;
    }
    const loc = statement.loc;
    if (loc && !chained) body.push({ type: 'ContentStatement', value: mark(loc.start.line), original: mark(loc.start.line), loc } as unknown as hbs.AST.ContentStatement);
    body.push(statement);
    if (statement.type === 'BlockStatement') {
      const block = statement as hbs.AST.BlockStatement;
      markProgram(block.program);
      markProgram(block.inverse);
    }
  }
  program.body = body;
}

/**
 * The content's text (what remains of it after whitespace control) with the mark of its first line
 * in front and the mark of each following line after each line break.
 */
function markContent(content: hbs.AST.ContentStatement): string {
  const value = content.value;
  const original = (content as unknown as { original: string }).original; // typed wrongly by @types/handlebars
  const start = content.loc.start.line + lineBreaks(original.slice(0, offsetIn(original, value)));
  // Joined, not appended a character at a time: a long state file would become a rope of millions of pieces.
  const lines = value.split('\n');
  const last = lines.length - 1;
  return lines.map((text, i) => (i === last && i > 0 && text === '' ? '' : mark(start + i) + text)).join('\n');
}

/** Where the stripped text starts in the original: whitespace control only takes blanks off its ends. */
function offsetIn(original: string, value: string): number {
  for (let i = 0; i + value.length <= original.length; i++) {
    if (original.startsWith(value, i) && original.slice(0, i).trim() === '' && original.slice(i + value.length).trim() === '') return i;
  }
  return 0;
}

function lineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A straight template (straightShape): the line breaks of its text, and whether it ends with one. */
export interface StraightShape {
  breaks: number;
  endsWithBreak: boolean;
}

/**
 * A template whose every line renders as one line: only text and values (`{{x}}`), each value on
 * one line, with no whitespace control, blocks, comments or partials. Its rendered line N is its
 * source line N unless a value holds a line break (straightLines), so it can render without marks
 * (a module's state files, rendered once per instance). Undefined when it is not straight.
 */
export function straightShape(ast: hbs.AST.Program, source: string): StraightShape | undefined {
  if (source.includes(OPEN)) return undefined;
  let breaks = 0;
  let endsWithBreak = false;
  for (const statement of ast.body) {
    if (statement.type === 'ContentStatement') {
      const content = statement as hbs.AST.ContentStatement;
      if (content.value !== (content as unknown as { original: string }).original) return undefined;
      breaks += lineBreaks(content.value);
      endsWithBreak = content.value.endsWith('\n');
    } else if (statement.type === 'MustacheStatement') {
      const value = statement as hbs.AST.MustacheStatement;
      if (!value.loc || value.loc.start.line !== value.loc.end.line || value.strip?.open || value.strip?.close) return undefined;
      endsWithBreak = false;
    } else {
      return undefined;
    }
  }
  return { breaks, endsWithBreak };
}

/**
 * A straight template's rendered text with the source line of each line, as unmarkLines finds them
 * in a marked rendering (the empty line after a last line break has none); undefined when a value
 * held a line break, and the lines moved: then the template renders again with marks.
 */
export function straightLines(text: string, shape: StraightShape): UnmarkedText | undefined {
  if (lineBreaks(text) !== shape.breaks) return undefined;
  const sourceLines: (number | undefined)[] = [];
  for (let line = 1; line <= shape.breaks + 1; line++) sourceLines.push(line);
  if (shape.endsWithBreak) sourceLines[shape.breaks] = undefined;
  return { text, sourceLines };
}

export interface UnmarkedText {
  text: string;
  /** For each rendered line (index 0 is line 1): the source line it came from, when known. */
  sourceLines: (number | undefined)[];
}

/**
 * Takes the marks out of rendered text, keeping where each line came from. One pass over the text
 * with indexOf, not a split and a regular expression per line: a module's files are unmarked once
 * per instance (bench/README.md, "The fleet layer").
 */
export function unmarkLines(marked: string): UnmarkedText {
  if (!marked.includes(OPEN)) return { text: marked, sourceLines: [] };
  const sourceLines: (number | undefined)[] = [];
  const lines: string[] = [];
  let marks = 0;
  const end = marked.length;
  for (let start = 0; start <= end; ) {
    const lineEnd = lineEndAt(marked, start);
    // The marks a line starts with: the last of them is the source line it came from.
    let source: number | undefined;
    let pos = start;
    while (pos < lineEnd && marked.charCodeAt(pos) === OPEN_CODE) {
      const read = markAt(marked, pos, lineEnd);
      if (!read) break;
      source = read.line;
      pos = read.next;
      marks++;
    }
    let line = marked.slice(pos, lineEnd);
    if (line.includes(OPEN)) {
      line = line.replace(ANY_MARK, () => {
        marks++;
        return '';
      });
    }
    sourceLines.push(source);
    lines.push(line);
    start = lineEnd + 1;
  }
  return { text: lines.join('\n'), sourceLines: marks > 0 ? sourceLines : [] };
}

const OPEN_CODE = OPEN.charCodeAt(0);
const CLOSE_CODE = CLOSE.charCodeAt(0);

function lineEndAt(text: string, from: number): number {
  const i = text.indexOf('\n', from);
  return i < 0 ? text.length : i;
}

/** The mark at pos (OPEN, digits, CLOSE, before limit): its line and where it ends; undefined when there is none. */
function markAt(text: string, pos: number, limit: number): { line: number; next: number } | undefined {
  let line = 0;
  let i = pos + 1;
  for (; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === CLOSE_CODE) break;
    if (c < 48 || c > 57) return undefined;
    line = line * 10 + (c - 48);
  }
  return i > pos + 1 && i < limit ? { line, next: i + 1 } : undefined;
}
