// The token stream `govern fmt` lays out: govern's HCL as written, before any template renders, so
// that a Handlebars expression (`{{...}}`) is one token kept exactly as written, inside a quoted
// string or outside one. Every token keeps its text; only the blanks between tokens are dropped
// (each token remembers whether blanks came before it), which is all the formatter may change.

export type TokenKind = 'word' | 'string' | 'heredoc' | 'open' | 'close' | 'equals' | 'comma' | 'colon' | 'template' | 'comment' | 'newline' | 'other';

export interface Token {
  kind: TokenKind;
  text: string;
  /** 1-based line of the token's first character. */
  line: number;
  /** Blanks (spaces, tabs) stood between this token and the one before it on its line. */
  spaced: boolean;
}

/** Why a text is left as it is: the formatter cannot lay it out without risking its meaning. */
export class Unformattable extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const WORD = /[\p{ID_Continue}.\-+]+/uy;
const HEREDOC = /<<-?([\p{ID_Start}_][\p{ID_Continue}-]*)\n/uy;

/**
 * The tokens of a text; throws Unformattable where it cannot be read safely. `templated`: the file
 * renders as a template (state files, hierarchy.hcl), so `{{` opens an expression even in a string;
 * data files and recipients.hcl are not templates, and their `{{` is text.
 */
export function lex(text: string, templated = true): Token[] {
  if (text.includes('\r')) throw new Unformattable(text.slice(0, text.indexOf('\r')).split('\n').length, 'the file has carriage returns (CRLF line ends): fmt writes LF only, and does not rewrite text inside values');
  const tokens: Token[] = [];
  let pos = 0;
  let line = 1;
  let spaced = false;
  const push = (kind: TokenKind, end: number) => {
    const t = text.slice(pos, end);
    tokens.push({ kind, text: t, line, spaced });
    line += count(t, '\n');
    pos = end;
    spaced = false;
  };
  while (pos < text.length) {
    const c = text[pos];
    if (c === ' ' || c === '\t') {
      pos++;
      spaced = true;
    } else if (c === '\n') push('newline', pos + 1);
    else if (templated && c === '{' && text[pos + 1] === '{') push('template', mustacheEnd(text, pos, line));
    else if (c === '#' || (c === '/' && text[pos + 1] === '/')) push('comment', lineEnd(text, pos));
    else if (c === '/' && text[pos + 1] === '*') {
      const end = text.indexOf('*/', pos + 2);
      if (end < 0) throw new Unformattable(line, 'a "/*" comment is not closed');
      push('comment', end + 2);
    } else if (c === '"') push('string', stringEnd(text, pos, line, templated));
    else if (c === '<' && text[pos + 1] === '<' && heredocAt(text, pos)) push('heredoc', heredocEnd(text, pos, line));
    else if (c === '{' || c === '[' || c === '(') push('open', pos + 1);
    else if (c === '}' || c === ']' || c === ')') push('close', pos + 1);
    else if (c === '=') push('equals', pos + 1);
    else if (c === ',') push('comma', pos + 1);
    else if (c === ':') push('colon', pos + 1);
    else if (templated && c === '\\' && text.startsWith('{{', pos + 1)) throw new Unformattable(line, 'an escaped "\\{{" outside a string: fmt leaves such a file as it is');
    else {
      WORD.lastIndex = pos;
      const word = WORD.exec(text);
      push(word ? 'word' : 'other', word ? WORD.lastIndex : pos + 1);
    }
  }
  for (const t of tokens) {
    if (t.kind === 'template' && (t.text.startsWith('{{~') || t.text.endsWith('~}}'))) {
      throw new Unformattable(t.line, `${t.text} strips the blanks around it (Handlebars' "~"): fmt leaves such a file as it is, since moving a blank would change what it renders`);
    }
    if (t.kind === 'comment' && /\{\{[#^/]|\{\{else/.test(t.text)) throw new Unformattable(t.line, 'a template block ({{#...}}, {{else}} or {{/...}}) inside a comment: the comment is rendered too, and fmt cannot see the block\'s shape');
  }
  return tokens;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

function lineEnd(text: string, pos: number): number {
  const end = text.indexOf('\n', pos);
  return end < 0 ? text.length : end;
}

/** Just past the `}}` closing the Handlebars expression at pos (`{{`), skipping its string literals. */
function mustacheEnd(text: string, pos: number, line: number): number {
  if (text.startsWith('{{{{', pos)) throw new Unformattable(line, 'a raw block ({{{{...}}}}): fmt leaves such a file as it is');
  if (text.startsWith('{{!--', pos)) {
    const end = text.indexOf('--}}', pos + 5);
    if (end < 0) throw new Unformattable(line, 'a "{{!--" template comment is not closed');
    return end + 4;
  }
  if (text.startsWith('{{!', pos)) {
    const end = text.indexOf('}}', pos + 3);
    if (end < 0) throw new Unformattable(line, 'a "{{!" template comment is not closed');
    return end + 2;
  }
  const close = text.startsWith('{{{', pos) ? '}}}' : '}}';
  let i = pos + close.length;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) break;
      i = end + 1;
    } else if (text.startsWith(close, i)) return i + close.length;
    else i++;
  }
  throw new Unformattable(line, `a template expression "${text.slice(pos, pos + 20)}..." is not closed by "${close}"`);
}

/** Just past the closing quote of the quoted string at pos; a `{{...}}` inside it is skipped whole. */
function stringEnd(text: string, pos: number, line: number, templated: boolean): number {
  let i = pos + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') return i + 1;
    if (c === '\n') break;
    if (c === '\\') i += 2;
    else if (templated && c === '{' && text[i + 1] === '{') i = mustacheEnd(text, i, line);
    else i++;
  }
  throw new Unformattable(line, 'a quoted string is not closed on its line');
}

function heredocAt(text: string, pos: number): boolean {
  HEREDOC.lastIndex = pos;
  return HEREDOC.test(text);
}

/** Just past the closing marker of the heredoc at pos: its body is kept exactly, line for line. */
function heredocEnd(text: string, pos: number, line: number): number {
  HEREDOC.lastIndex = pos;
  const m = HEREDOC.exec(text)!;
  let start = HEREDOC.lastIndex;
  while (start < text.length) {
    const end = lineEnd(text, start);
    if (text.slice(start, end).trim() === m[1]) return end;
    start = end + 1;
  }
  throw new Unformattable(line, `the heredoc <<${m[1]} is not closed: no line holds ${m[1]} alone`);
}
