// The parser of govern's HCL: the literal subset of HCL's native syntax that state files, data files,
// hierarchy.hcl and recipients.hcl are written in (docs/hcl.md). Blocks with labels, attributes,
// quoted strings, heredocs, numbers, true, false, null, lists, objects and comments; any expression
// (a bare word, a reference, a function call, an operator, an interpolation) is refused with a
// message that says what to write instead. It keeps source order and positions, stops at the first
// mistake of a file (one error for one mistake, never a cascade), recurses at most MAX_NESTING
// levels and reads the text in one linear pass.
import { UserError } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { Cursor } from './cursor.js';
import { atHeredoc, heredoc, nfc, quotedString } from './strings.js';
import type { HclBlock, HclFile, HclItem, Position } from './syntax.js';

const IDENTIFIER = /[\p{ID_Start}_][\p{ID_Continue}-]*/uy;
const NUMBER = /-?[ \t]*[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const OPERATORS = '+-*/%<>=!&|?:.[(';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const WHAT_A_VALUE_IS = 'a quoted string, a number, true, false, null, a list [...], an object { ... } or a heredoc <<EOT';

/** Where each value of a top-level attribute, and of the objects and lists inside it, was written. */
export interface ValueSpan {
  /** Offsets in the text: the value's first character, and just after its last. */
  start: number;
  end: number;
  kind: 'string' | 'object' | 'other';
}

/** Key paths ("db/password") -> spans, filled while parsing, for an editor that changes one value in place. */
export type ValueSpans = Map<string, ValueSpan>;

/** The spans being recorded by the parse in progress, and the key path of the value being read. */
let recording: { spans: ValueSpans; path: string[] } | undefined;

/** The items of an HCL text; throws a UserError at the first mistake, with its line and column. */
export function parseHcl(file: string, text: string, spans?: ValueSpans): HclFile {
  checkUnicode(file, text);
  const cur = new Cursor(file, text);
  recording = spans ? { spans, path: [] } : undefined;
  try {
    return { items: body(cur, undefined) };
  } finally {
    recording = undefined;
  }
}

/** The items of a body, up to its closing brace (consumed) or, at the top level (open undefined), the end. */
function body(cur: Cursor, open: { type: string; at: Position } | undefined): HclItem[] {
  const items: HclItem[] = [];
  const attributes = new Map<string, Position>();
  for (;;) {
    cur.skipBlank(true);
    const c = cur.peek();
    if (c === undefined) {
      if (open) cur.fail(`the block ${open.type} is not closed: its "{" has no matching "}"`, open.at);
      return items;
    }
    if (c === '}') {
      if (!open) cur.fail('a "}" that closes no block');
      cur.pos++;
      return items;
    }
    const at = cur.here();
    const name = identifier(cur);
    if (name === undefined) cur.fail(`expected an attribute (name = value) or a block (type "label" { ... }), found ${cur.describeHere()}`);
    cur.skipBlank(false);
    if (cur.peek() === '=') {
      cur.pos++;
      const first = attributes.get(name);
      if (first) cur.fail(`${name} is set twice (first at line ${first.line}): an attribute is set once in a block`, at);
      attributes.set(name, at);
      if (recording && !open) recording.path = [name];
      items.push({ kind: 'attribute', name, value: open ? value(cur) : recorded(cur), at });
    } else items.push(block(cur, name, at));
    endOfItem(cur, open !== undefined);
  }
}

/** A block, from its labels (its type read) to its closing brace. */
function block(cur: Cursor, type: string, at: Position): HclBlock {
  const labels: string[] = [];
  for (;;) {
    cur.skipBlank(false);
    const c = cur.peek();
    if (c === '"') labels.push(quotedString(cur, false));
    else if (c === '{') break;
    else {
      const label = identifier(cur);
      if (label === undefined) cur.fail(`expected "=" after ${type} (an attribute), or a block's labels and "{", found ${cur.describeHere()}`);
      labels.push(label);
    }
  }
  cur.open();
  cur.pos++;
  cur.skipBlank(false);
  const c = cur.peek();
  // HCL's two forms: the body on lines of its own ("{" ends its line, "}" starts one), or a
  // single-line block holding nothing or one attribute (`a { b = 1 }`), never a block.
  const items = c === '\n' || c === undefined ? body(cur, { type, at }) : oneLineBody(cur, type, at);
  cur.close();
  return { kind: 'block', type, labels, body: items, at };
}

const ONE_LINE = 'a block on one line holds nothing or a single attribute (type { name = value }), as HCL\'s native syntax says; put its body on lines of its own';

function oneLineBody(cur: Cursor, type: string, open: Position): HclItem[] {
  if (cur.peek() === '}') {
    cur.pos++;
    return [];
  }
  const at = cur.here();
  const name = identifier(cur);
  if (name === undefined) cur.fail(`expected an attribute (name = value) or the end of the line after "{", found ${cur.describeHere()}`);
  cur.skipBlank(false);
  if (cur.peek() !== '=') cur.fail(`${ONE_LINE} (${name} starts a block inside the single-line block ${type})`, at);
  cur.pos++;
  const item: HclItem = { kind: 'attribute', name, value: value(cur), at };
  cur.skipBlank(false);
  if (cur.peek() !== '}') {
    if (cur.peek() === '\n' || cur.peek() === undefined) cur.fail(`${ONE_LINE} (the block ${type} opened at line ${open.line} goes on after its attribute ${name})`, at);
    unexpectedAfterValue(cur, `"}" closing the single-line block ${type}`);
  }
  cur.pos++;
  return [item];
}

/** After an attribute or a block: the end of the line (a comment may come first), the file, or the enclosing block's "}". */
function endOfItem(cur: Cursor, inBlock: boolean): void {
  cur.skipBlank(false);
  const c = cur.peek();
  if (c === undefined || c === '\n') return;
  if (c === '}' && inBlock) cur.fail('a block\'s closing "}" starts a line of its own, after the last attribute or block of the body (HCL\'s native syntax)');
  unexpectedAfterValue(cur, 'a new line after each attribute and block');
}

function unexpectedAfterValue(cur: Cursor, expected: string): never {
  const c = cur.peek()!;
  if (c === '"') cur.fail('a stray " after a value: a quoted string opens and closes with one " (write \\" for a quote inside it)');
  if (OPERATORS.includes(c)) {
    cur.fail(`${JSON.stringify(c)} makes an HCL expression, which govern does not evaluate: write the value itself (${WHAT_A_VALUE_IS}); values from the host come from Handlebars ({{fact "..."}})`);
  }
  cur.fail(`expected ${expected}, found ${cur.describeHere()}`);
}

/** A value, with its span when spans are recorded for its key path. */
function recorded(cur: Cursor): AttrValue {
  const path = recording?.path;
  if (path === undefined || path.length === 0) return value(cur);
  cur.skipBlank(false);
  const start = cur.pos;
  const c = cur.peek();
  const v = value(cur);
  recording?.spans.set(path.join('/'), { start, end: cur.pos, kind: c === '"' ? 'string' : c === '{' ? 'object' : 'other' });
  return v;
}

function value(cur: Cursor): AttrValue {
  cur.skipBlank(false);
  const c = cur.peek();
  if (c === '"') return quotedString(cur);
  if (c === '[') return list(cur);
  if (c === '{') return object(cur);
  if (c === '<' && atHeredoc(cur)) return heredoc(cur);
  if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number(cur);
  const at = cur.here();
  const word = identifier(cur);
  if (word === undefined) cur.fail(`Invalid expression: expected a value (${WHAT_A_VALUE_IS}), found ${cur.describeHere()}`);
  if (word === 'true') return true;
  if (word === 'false') return false;
  if (word === 'null') return null;
  cur.skipBlank(false);
  if (cur.peek() === '(') cur.fail(`${word}(...) is an HCL function call, which govern does not evaluate: write the value itself; values from the host come from Handlebars ({{fact "..."}})`, at);
  if (cur.peek() === '.' || cur.peek() === '[') cur.fail(`${word}${cur.peek()}... is an HCL reference, which govern does not evaluate: write the value itself; values from the host come from Handlebars ({{fact "..."}})`, at);
  cur.fail(`${word} is a bare word, which HCL would read as an expression: quote it ("${word}")`, at);
}

function number(cur: Cursor): number {
  NUMBER.lastIndex = cur.pos;
  const m = NUMBER.exec(cur.text);
  if (!m) unexpectedAfterValue(cur, 'a value'); // a "-" before something other than a number
  const end = NUMBER.lastIndex;
  const next = cur.text[end];
  if (next === '.' || (next !== undefined && /[\p{ID_Continue}]/u.test(next))) {
    cur.fail(`not a number: a number is written 42, -1, 0.5 or 1e6 (a text is quoted: "${cur.text.slice(cur.pos, end)}${next}...")`);
  }
  const written = m[0].replace(/[ \t]/g, '');
  const n = Number(written);
  // A double holds every integer up to 2^53 exactly; past it, 12345678901234567890 would become ...7000.
  if (/^-?[0-9]+$/.test(written) && !Number.isSafeInteger(n)) {
    cur.fail(`the integer ${written} is larger than a number can hold exactly (${Number.MAX_SAFE_INTEGER}): quote it as a string ("${written}")`);
  }
  cur.pos = end;
  return n;
}

function list(cur: Cursor): AttrValue[] {
  cur.open();
  cur.pos++;
  const items: AttrValue[] = [];
  const path = recording?.path;
  for (;;) {
    cur.skipBlank(true);
    if (cur.peek() === ']') break;
    // An item of a list under a key path is recorded as KEY/INDEX (hierarchy.hcl's levels/2).
    if (recording) recording.path = path && path.length > 0 ? [...path, `${items.length}`] : [];
    items.push(recorded(cur));
    cur.skipBlank(true);
    if (cur.peek() === ',') cur.pos++;
    else if (cur.peek() !== ']') {
      if (cur.peek() === undefined) cur.fail('this list is not closed: expected "]"');
      unexpectedAfterValue(cur, 'a "," between the items of a list, or its closing "]"');
    }
  }
  if (recording && path) recording.path = path;
  cur.pos++;
  cur.close();
  return items;
}

function object(cur: Cursor): { [key: string]: AttrValue } {
  cur.open();
  cur.pos++;
  const result: { [key: string]: AttrValue } = {};
  for (;;) {
    cur.skipBlank(true);
    if (cur.peek() === '}') break;
    const key = objectKey(cur);
    cur.skipBlank(false);
    if (cur.peek() !== '=' && cur.peek() !== ':') cur.fail(`expected "=" after the key ${JSON.stringify(key)}, found ${cur.describeHere()}`);
    cur.pos++;
    const path = recording?.path;
    if (recording && path && path.length > 0) recording.path = [...path, key];
    const v = recorded(cur);
    if (recording && path) recording.path = path;
    // The last of two equal keys wins, as in HCL; a key named __proto__ stays a key.
    Object.defineProperty(result, key, { value: v, enumerable: true, writable: true, configurable: true });
    cur.skipBlank(false);
    if (cur.peek() === ',') cur.pos++;
    else if (cur.peek() !== '\n' && cur.peek() !== '}') {
      if (cur.peek() === undefined) cur.fail('this object is not closed: expected "}"');
      unexpectedAfterValue(cur, 'a "," or a new line between the items of an object, or its closing "}"');
    }
  }
  cur.pos++;
  cur.close();
  return result;
}

function objectKey(cur: Cursor): string {
  const c = cur.peek();
  if (c === '"') return quotedString(cur);
  if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return String(number(cur));
  const word = identifier(cur);
  if (word !== undefined) return nfc(word);
  if (c === undefined) cur.fail('this object is not closed: expected "}"');
  cur.fail(`expected a key (a name or a quoted string) in this object, found ${cur.describeHere()}`);
}

function identifier(cur: Cursor): string | undefined {
  IDENTIFIER.lastIndex = cur.pos;
  const m = IDENTIFIER.exec(cur.text);
  if (!m) return undefined;
  cur.pos = IDENTIFIER.lastIndex;
  return m[0];
}

/** A JavaScript string may hold half a UTF-16 pair, which no file can: refused rather than written out altered. */
function checkUnicode(file: string, text: string): void {
  if ((text as { isWellFormed?: () => boolean }).isWellFormed?.() === true) return;
  const m = LONE_SURROGATE.exec(text);
  if (!m) return;
  const before = text.slice(0, m.index);
  const line = before.split('\n').length;
  const column = m.index - before.lastIndexOf('\n');
  throw new UserError({ file, line, column, message: `not valid Unicode (a lone surrogate U+${m[0].charCodeAt(0).toString(16).toUpperCase()})` });
}
