// The canonical layout of a token stream (lex.ts), as `terraform fmt` lays out HCL: two spaces per
// open bracket, `=` aligned over consecutive attribute lines, trailing comments aligned likewise,
// one blank line after a block and never two in a row, a final newline. Only blanks and blank
// lines change; the blanks beside a template expression are kept as they were (docs/fmt.md).
import { Unformattable, type Token } from './lex.js';

interface Line {
  lead: Token[];
  /** From the `=` of an attribute whose value ends on this line. */
  assign: Token[];
  /** A comment after something else on the line. */
  comment?: Token;
  indent: number;
  /** The line is `}` closing a block (not an object). */
  closesBlock: boolean;
}

export function layout(tokens: Token[]): string {
  checkTemplateBlocks(tokens);
  const lines = splitLines(tokens);
  indent(lines);
  const texts = cells(lines);
  const out: string[] = [];
  lines.forEach((line, i) => {
    const blank = texts[i] === '';
    if (blank && (out.length === 0 || out[out.length - 1] === '')) return;
    const previous = lines[i - 1];
    if (!blank && previous?.closesBlock && out[out.length - 1] !== '' && startsItem(line)) out.push('');
    out.push(texts[i]);
  });
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.length === 0 ? '' : out.join('\n') + '\n';
}

/** A template block's branches open and close the same brackets, or the file's layout depends on what renders. */
function checkTemplateBlocks(tokens: Token[]): void {
  const open: { depth: number; token: Token }[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'open') depth++;
    else if (t.kind === 'close') depth--;
    else if (t.kind === 'template') {
      const inner = t.text.replace(/^\{\{\{?/, '').trimStart();
      const isElse = /^else\b/.test(inner) || /^\^\s*\}\}$/.test(inner);
      if ((inner.startsWith('#') || inner.startsWith('^')) && !isElse) open.push({ depth, token: t });
      else if (isElse || inner.startsWith('/')) {
        const top = open[open.length - 1];
        if (top && top.depth !== depth) {
          throw new Unformattable(top.token.line, `the template block ${short(top.token.text)} (line ${top.token.line}) opens or closes a bracket that ${short(t.text)} (line ${t.line}) does not: the file's blocks depend on what renders, and fmt leaves it as it is`);
        }
        if (inner.startsWith('/')) open.pop();
      }
    }
  }
}

function short(text: string): string {
  return text.length > 40 ? text.slice(0, 37) + '...' : text;
}

function splitLines(tokens: Token[]): Line[] {
  const lines: Line[] = [];
  let current: Token[] = [];
  const end = () => {
    const line: Line = { lead: current, assign: [], indent: 0, closesBlock: false };
    const last = current[current.length - 1];
    if (current.length > 1 && last.kind === 'comment') {
      line.comment = last;
      line.lead = current.slice(0, -1);
    }
    const eq = line.lead.findIndex((t, i) => i > 0 && t.kind === 'equals');
    if (eq > 0 && net(line.lead.slice(eq)) === 0) {
      line.assign = line.lead.slice(eq);
      line.lead = line.lead.slice(0, eq);
    }
    lines.push(line);
    current = [];
  };
  for (const t of tokens) {
    if (t.kind === 'newline') end();
    else current.push(t);
  }
  if (current.length > 0) end();
  return lines;
}

function net(tokens: Token[]): number {
  let n = 0;
  for (const t of tokens) n += t.kind === 'open' ? 1 : t.kind === 'close' ? -1 : 0;
  return n;
}

/** hclwrite's indentation: a line with more openers indents what follows, one level per such line. */
function indent(lines: Line[]): void {
  const stack: { count: number; block: boolean }[] = [];
  for (const line of lines) {
    const all = [...line.lead, ...line.assign];
    if (all.length === 0) continue;
    const n = net(all);
    if (n > 0) {
      line.indent = stack.length;
      stack.push({ count: n, block: isBlockHeader(all) });
      continue;
    }
    let closed = -n;
    while (closed > 0 && stack.length > 0) {
      const top = stack[stack.length - 1];
      if (closed >= top.count) {
        closed -= top.count;
        stack.pop();
        if (closed === 0 && all.length === 1 && top.block) line.closesBlock = true;
      } else {
        top.count -= closed;
        closed = 0;
      }
    }
    line.indent = stack.length;
  }
}

/** `type "label" ... {`: a word, no `=` or `:`, ending with the brace. */
function isBlockHeader(tokens: Token[]): boolean {
  const last = tokens[tokens.length - 1];
  return tokens[0].kind === 'word' && last.kind === 'open' && last.text === '{' && !tokens.some((t) => t.kind === 'equals' || t.kind === 'colon');
}

/** A line that starts an attribute or a block: not a closing bracket, not a template alone. */
function startsItem(line: Line): boolean {
  const first = line.lead[0];
  if (first === undefined || first.kind === 'close') return false;
  return ![...line.lead, ...line.assign].every((t) => t.kind === 'template');
}

/** Each line's text: its indentation, its cells joined, `=` and comments aligned over runs of lines. */
function cells(lines: Line[]): string[] {
  const leads = lines.map((l) => join(l.lead));
  const assigns = lines.map((l) => (l.assign.length > 0 ? join(l.assign) : ''));
  const widths = leads.map((lead, i) => (lines[i].assign.length > 0 ? width(lead) : 0));
  align(lines, (l) => l.assign.length > 0, (i, max) => {
    leads[i] = leads[i] + ' '.repeat(max - widths[i] + 1) + assigns[i];
  }, widths);
  const bodies = leads.map((lead, i) => (lines[i].assign.length > 0 ? lead : lead + (assigns[i] ? ' ' + assigns[i] : '')));
  const bodyWidths = bodies.map(width);
  align(lines, (l) => l.comment !== undefined, (i, max) => {
    bodies[i] = bodies[i] + ' '.repeat(max - bodyWidths[i] + 1) + lines[i].comment!.text;
  }, bodyWidths);
  return bodies.map((body, i) => (body === '' ? '' : '  '.repeat(lines[i].indent) + body));
}

/** Over each run of consecutive lines that `has`, calls `set` with the widest width of the run. */
function align(lines: Line[], has: (l: Line) => boolean, set: (i: number, max: number) => void, widths: number[]): void {
  let start = -1;
  const close = (end: number) => {
    const max = Math.max(...widths.slice(start, end));
    for (let i = start; i < end; i++) set(i, max);
    start = -1;
  };
  lines.forEach((l, i) => {
    if (has(l)) {
      if (start < 0) start = i;
    } else if (start >= 0) close(i);
  });
  if (start >= 0) close(lines.length);
}

/** Columns of a text as shown: code points, on the last line of a token that spans lines. */
function width(text: string): number {
  return [...text.slice(text.lastIndexOf('\n') + 1)].length;
}

function join(tokens: Token[]): string {
  let text = '';
  tokens.forEach((t, i) => {
    if (i > 0 && spaceBetween(tokens[i - 1], t)) text += ' ';
    text += t.text;
  });
  return text;
}

/** hclwrite's spacing rules, for the tokens govern's HCL has; beside a template or an unknown sign, as written. */
function spaceBetween(before: Token, after: Token): boolean {
  if (before.kind === 'template' || after.kind === 'template' || before.kind === 'other' || after.kind === 'other') return after.spaced;
  if (after.kind === 'comma' || after.kind === 'colon') return false;
  if (before.kind === 'comma' || before.kind === 'colon') return true;
  if (before.text === '{' && after.text === '}') return false;
  if (before.text === '{' || after.text === '}') return true;
  if (before.kind === 'open' || after.kind === 'close') return false;
  if (after.kind === 'open' && after.text !== '{' && before.kind === 'word') return after.spaced;
  return true;
}
