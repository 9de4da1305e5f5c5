// Quoted strings and heredocs, decoded as HCL decodes them: the escapes of a quoted string, the
// `$${` and `%%{` that stand for a literal `${` and `%{`, the indentation a `<<-` heredoc strips,
// and Unicode NFC. An interpolation or directive (`${`, `%{`) is refused: govern's state files hold
// literal values (templates are Handlebars). Text is copied in slices, never a character at a time,
// so a value of 50 MB costs about its own size.
import type { Cursor } from './cursor.js';
import type { Position } from './syntax.js';

const QUOTED_SPECIAL = /["\\$%\n]|\r\n/g;
/**
 * `${` or `%{` that is not the end of `$${` or `%%{`: read from the left, a run of signs before a
 * brace is literal signs and then one escape when it has two or more, an interpolation when it has one.
 */
const INTERPOLATION = /(?<!\$)\$\{|(?<!%)%\{/;
const HEREDOC_START = /<<(-?)([\p{ID_Start}_][\p{ID_Continue}-]*)\r?\n/uy;
const HEX = /^[0-9A-Fa-f]+$/;
const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/**
 * The quoted string at the cursor (on its opening quote), decoded; the cursor ends past the closing
 * quote. HCL normalizes a value's text to NFC, but not a block label's (normalize false).
 */
export function quotedString(cur: Cursor, normalize = true): string {
  const t = cur.text;
  const open = cur.here();
  const pieces: string[] = [];
  let from = ++cur.pos;
  for (;;) {
    QUOTED_SPECIAL.lastIndex = cur.pos;
    const at = QUOTED_SPECIAL.exec(t)?.index ?? -1;
    if (at < 0 || t[at] === '\n' || t[at] === '\r') {
      cur.fail('this quoted string is not closed on its line (a stray or missing "?): a quoted string ends on the line it starts on; write \\n for a line break, or use a heredoc (<<EOT)', open);
    }
    pieces.push(t.slice(from, at));
    const ch = t[at];
    if (ch === '"') {
      cur.pos = at + 1;
      const text = pieces.length === 1 ? pieces[0] : pieces.join('');
      return normalize ? nfc(text) : text;
    }
    if (ch === '\\') {
      const [decoded, length] = escape(cur, at);
      pieces.push(decoded);
      cur.pos = from = at + length;
    } else {
      cur.pos = from = templateSign(cur, at, pieces);
    }
  }
}

/** At a `$` or `%`: `$${` is a literal `${` (pushed), `${` is refused, anything else is text; returns where to go on. */
function templateSign(cur: Cursor, at: number, pieces: string[]): number {
  const t = cur.text;
  const sign = t[at];
  if (t[at + 1] === sign && t[at + 2] === '{') {
    pieces.push(sign + '{');
    return at + 3;
  }
  if (t[at + 1] !== '{') {
    pieces.push(sign);
    return at + 1;
  }
  interpolation(cur, sign, cur.at(at));
}

function interpolation(cur: Cursor, sign: string, where: Position): never {
  const what = sign === '$' ? 'an HCL interpolation' : 'an HCL template directive';
  cur.fail(
    `"${sign}{" starts ${what}, which govern does not evaluate: a literal "${sign}{" is written "${sign}${sign}{"` +
      ` (as in LogFormat "%%{Referer}i"); values from the host come from Handlebars ({{fact "..."}})`,
    where,
  );
}

/** The escape at `at` (a backslash): its text and its length. */
function escape(cur: Cursor, at: number): [string, number] {
  const t = cur.text;
  const c = t[at + 1];
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) return [simple, 2];
  if (c === 'u' || c === 'U') {
    const digits = c === 'u' ? 4 : 8;
    const hex = t.slice(at + 2, at + 2 + digits);
    if (hex.length !== digits || !HEX.test(hex)) {
      cur.fail(`invalid escape: \\${c} is followed by ${digits} hexadecimal digits (\\${c}${'0'.repeat(digits - 2)}e9)`, cur.at(at));
    }
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) cur.fail(`invalid escape: \\${c}${hex} is not a Unicode character`, cur.at(at));
    return [String.fromCodePoint(code), 2 + digits];
  }
  const shown = c === undefined || c === '\n' ? 'a backslash at the end of the line' : `\\${c}`;
  cur.fail(`invalid escape: ${shown}; a quoted string knows \\n \\r \\t \\" \\\\ \\uNNNN and \\UNNNNNNNN (write \\\\ for a backslash)`, cur.at(at));
}

/** True when the cursor is on `<<EOT` or `<<-EOT` followed by a line break. */
export function atHeredoc(cur: Cursor): boolean {
  HEREDOC_START.lastIndex = cur.pos;
  return HEREDOC_START.test(cur.text);
}

/** The heredoc at the cursor, decoded; the cursor ends just past its closing marker. */
export function heredoc(cur: Cursor): string {
  const t = cur.text;
  const open = cur.here();
  HEREDOC_START.lastIndex = cur.pos;
  const m = HEREDOC_START.exec(t)!;
  const flush = m[1] === '-';
  const marker = m[2];
  const bodyStart = HEREDOC_START.lastIndex;
  const lineOfBody = open.line + 1;
  // The closing marker first, a line at a time; the body is then read whole.
  let lineStart = bodyStart;
  let lines = 0;
  for (;;) {
    if (lineStart >= t.length) cur.fail(`this heredoc is not closed: no line holding only ${marker} follows <<${flush ? '-' : ''}${marker}`, open);
    const nl = t.indexOf('\n', lineStart);
    const end = nl < 0 ? t.length : nl;
    const markerAt = closingMarker(t, lineStart, end, marker);
    if (markerAt >= 0) {
      cur.line = lineOfBody + lines;
      cur.lineStart = lineStart;
      cur.pos = markerAt + marker.length;
      break;
    }
    lines++;
    lineStart = end + 1;
  }
  let body = t.slice(bodyStart, lineStart);
  const refused = INTERPOLATION.exec(body);
  if (refused) {
    const at = bodyStart + refused.index;
    const before = t.slice(bodyStart, at);
    const line = lineOfBody + before.split('\n').length - 1;
    interpolation(cur, refused[0][0], { line, column: at - (bodyStart + before.lastIndexOf('\n') + 1) + 1 });
  }
  // Each `$${` is now the end of a run of signs before a brace, and stands for one sign less.
  if (body.includes('$${')) body = body.replace(/\$\$\{/g, '$${'); // "$$" in a replacement is one "$"
  if (body.includes('%%{')) body = body.replace(/%%\{/g, '%{');
  return nfc(flush ? flushed(body) : body);
}

/** Where the marker stands on the line [start, end) if the line holds only it and white space. */
function closingMarker(t: string, start: number, end: number, marker: string): number {
  let at = start;
  while (at < end && t[at] !== marker[0] && IS_WS.test(t[at])) at++;
  if (t[at] !== marker[0] || !t.startsWith(marker, at)) return -1;
  for (let i = at + marker.length; i < end; i++) if (!IS_WS.test(t[i])) return -1;
  return at;
}

// HCL's white space (Go's unicode.IsSpace) but the line feed.
const WS = '[\\t\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const IS_WS = new RegExp(WS);

/**
 * A `<<-` heredoc's text, less the indentation its lines share: the fewest leading blanks of any
 * line that is not blank, each blank counting one; a blank line (white space only) is left as it is.
 */
function flushed(body: string): string {
  let min = Infinity;
  for (let start = 0; start < body.length && min > 0; ) {
    const nl = body.indexOf('\n', start);
    const end = nl < 0 ? body.length : nl;
    let at = start;
    while (at < end && at - start < min && IS_WS.test(body[at])) at++;
    if (at < end && at - start < min) min = at - start; // not blank, and less indented than the others
    start = end + 1;
  }
  if (min === 0 || min === Infinity) return body;
  return body.replace(new RegExp(`(?<![^\\n])${WS}{${min}}(?=[^\\n]*[^\\s])`, 'g'), '');
}

/** HCL normalizes literal text to Unicode NFC. */
export function nfc(value: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(value) ? value : value.normalize('NFC');
}
