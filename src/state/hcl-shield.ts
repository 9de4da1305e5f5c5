// Keeps two kinds of input away from hcl2json's parser, in one linear pass over the text:
// - nesting deeper than MAX_NESTING: the parser recurses once per level and overflows the call
//   stack after about 1,500 levels, with no line; refused here with the line;
// - long string literals (quoted or heredoc): the parser takes about 1.4 us and 60 to 90 bytes of
//   memory per byte of a quoted string, and time quadratic in a heredoc's length, so each is
//   replaced by a short placeholder and its value, decoded here, put back into the parsed result
//   (a 50 MB value took over a minute and 3 GB; bench/README.md, "Long values").
// Only literals whose value is certain are lifted: no interpolation, only valid escapes.
import crypto from 'node:crypto';
import { UserError } from '../shared/errors.js';

/** Brackets, braces, parentheses and `${` interpolations, counted together. */
export const MAX_NESTING = 100;
/** Shorter literals cost the parser little: left in place. */
export const LIFT_MIN_CHARS = 4096;

export interface Shielded {
  /** The text hcl2json parses: same lines, long literals replaced by placeholders. */
  text: string;
  /** Placeholder -> the value hcl2json would have given the literal. */
  lifted: Map<string, string>;
}

type Frame =
  | { kind: 'bracket' }
  | { kind: 'interpolation' }
  | { kind: 'quoted'; start: number; template: boolean }
  | { kind: 'heredoc'; start: number; bodyStart: number; marker: string; flush: boolean; template: boolean; atLineStart: boolean };

const CODE_SPECIAL = /["{}[\]()#/<]/g;
const QUOTED_SPECIAL = /["\\\n$%]/g;
const HEREDOC_SPECIAL = /[\n$%]/g;
const HEREDOC_START = /<<(-?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/y;

/** Throws a UserError (file:line) on nesting deeper than MAX_NESTING. */
export function shieldHcl(file: string, text: string, liftMin = LIFT_MIN_CHARS): Shielded {
  const frames: Frame[] = [];
  let depth = 0;
  const pieces: string[] = [];
  const lifted = new Map<string, string>();
  let copiedTo = 0;
  let nonce: string | undefined;
  const lift = (start: number, end: number, value: string, newlines: number) => {
    nonce ??= uniqueNonce(text);
    const placeholder = `govern-lifted-${nonce}-${lifted.size}`;
    lifted.set(placeholder, value);
    pieces.push(text.slice(copiedTo, start), `"${placeholder}"`, '\n'.repeat(newlines));
    copiedTo = end;
  };
  const interpolationsOpen = () => frames.some((f) => f.kind === 'interpolation');
  const open = (frame: Frame, at: number) => {
    frames.push(frame);
    if (++depth > MAX_NESTING) {
      throw new UserError({ file, line: countNewlines(text, 0, at) + 1, message: `nested more than ${MAX_NESTING} levels deep (brackets, braces, blocks and interpolations); govern refuses deeper nesting` });
    }
  };
  /** At a `$` or `%` in a string: `${` opens an interpolation, `$${` is literal text; returns where to go on. */
  const templateSign = (at: number, string: { template: boolean }): number => {
    const ch = text[at];
    if (text[at + 1] === ch && text[at + 2] === '{') return at + 3; // as it is in hcl2json's output too
    if (text[at + 1] !== '{') return at + 1;
    string.template = true;
    open({ kind: 'interpolation' }, at);
    return at + 2;
  };

  let pos = 0;
  while (pos < text.length) {
    const top = frames[frames.length - 1];
    if (top?.kind === 'quoted') {
      const at = nextMatch(QUOTED_SPECIAL, text, pos);
      if (at < 0) break;
      const ch = text[at];
      if (ch === '\\') pos = at + 2;
      else if (ch === '$' || ch === '%') pos = templateSign(at, top);
      else {
        frames.pop(); // a closing quote, or a newline: an unterminated string, hcl2json's to report
        pos = at + 1;
        if (ch === '"' && !top.template && at - top.start - 1 >= liftMin && !interpolationsOpen() && isValuePosition(text, top.start)) {
          const value = decodeQuoted(text.slice(top.start + 1, at));
          if (value !== undefined) lift(top.start, pos, value, 0);
        }
      }
      continue;
    }
    if (top?.kind === 'heredoc') {
      if (top.atLineStart) {
        top.atLineStart = false;
        const lineEnd = text.indexOf('\n', pos);
        const end = lineEnd < 0 ? text.length : lineEnd;
        if (text.slice(pos, end).trim() === top.marker) {
          frames.pop();
          const body = text.slice(top.bodyStart, pos);
          if (!top.flush && !top.template && body.length >= liftMin && !body.includes('\r') && !interpolationsOpen()) {
            lift(top.start, end, nfc(body), countNewlines(text, top.start, end));
          }
          pos = end;
          continue;
        }
      }
      const at = nextMatch(HEREDOC_SPECIAL, text, pos);
      if (at < 0) break;
      if (text[at] === '\n') {
        top.atLineStart = true;
        pos = at + 1;
      } else pos = templateSign(at, top);
      continue;
    }
    // Code: the top level, a bracket, or an interpolation.
    const at = nextMatch(CODE_SPECIAL, text, pos);
    if (at < 0) break;
    const ch = text[at];
    pos = at + 1;
    if (ch === '"') frames.push({ kind: 'quoted', start: at, template: false });
    else if (ch === '{' || ch === '[' || ch === '(') open({ kind: 'bracket' }, at);
    else if (ch === '}' || ch === ']' || ch === ')') {
      if (top?.kind === 'bracket' || top?.kind === 'interpolation') {
        frames.pop();
        depth--;
      }
    } else if (ch === '#' || (ch === '/' && text[pos] === '/')) {
      const end = text.indexOf('\n', pos);
      pos = end < 0 ? text.length : end;
    } else if (ch === '/' && text[pos] === '*') {
      const end = text.indexOf('*/', pos + 1);
      pos = end < 0 ? text.length : end + 2;
    } else if (ch === '<') {
      HEREDOC_START.lastIndex = at;
      const m = HEREDOC_START.exec(text);
      if (m) {
        frames.push({ kind: 'heredoc', start: at, bodyStart: HEREDOC_START.lastIndex, marker: m[2], flush: m[1] === '-', template: false, atLineStart: true });
        pos = HEREDOC_START.lastIndex;
      }
    }
  }
  if (lifted.size === 0) return { text, lifted };
  pieces.push(text.slice(copiedTo));
  return { text: pieces.join(''), lifted };
}

/** Puts the lifted values back: strings (and map keys or labels) that are placeholders. */
export function restoreLifted(parsed: Record<string, unknown>, lifted: Map<string, string>): Record<string, unknown> {
  if (lifted.size === 0) return parsed;
  const restore = (value: unknown): unknown => {
    if (typeof value === 'string') return lifted.get(value) ?? value;
    if (Array.isArray(value)) return value.map(restore);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [lifted.get(k) ?? k, restore(v)]));
    }
    return value;
  };
  return restore(parsed) as Record<string, unknown>;
}

/**
 * A literal after `=`, `,`, `[`, `(` or `:` is a value (a block label comes after a name or another
 * label, and hcl2json decodes a label differently from a value).
 */
function isValuePosition(text: string, quote: number): boolean {
  let at = quote - 1;
  while (at >= 0 && ' \t\r\n'.includes(text[at])) at--;
  return at >= 0 && '=,[(:'.includes(text[at]);
}

function nextMatch(re: RegExp, text: string, from: number): number {
  re.lastIndex = from;
  return re.exec(text)?.index ?? -1;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** HCL normalizes literal text to Unicode NFC. */
function nfc(value: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(value) ? value : value.normalize('NFC');
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };
/** What JSON reads differently: other escapes, control characters, and \u escapes HCL refuses or re-escapes. */
// eslint-disable-next-line no-control-regex
const JSON_UNLIKE = /(?<!\\)(?:\\\\)*\\(?:[^nrt"\\u]|u(?:00(?:24|25|7[bB])|[dD][89a-fA-F]))|[\x00-\x1f]/;
const ESCAPE = /\\(?:([nrt"\\])|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|)/g;

/**
 * The value of a quoted literal's text as hcl2json gives it, or undefined where it is not certain
 * (an escape HCL refuses, or one that makes a `$`, `%` or brace, which hcl2json would re-escape).
 */
function decodeQuoted(raw: string): string | undefined {
  if (raw.includes('\r')) return undefined;
  if (!JSON_UNLIKE.test(raw)) {
    // Then HCL's escapes are JSON's, and the native parser is many times faster on a long value.
    try {
      return nfc(JSON.parse(`"${raw}"`) as string);
    } catch {
      return undefined; // \u without four hex digits
    }
  }
  let certain = true;
  const value = raw.replace(ESCAPE, (_, simple: string | undefined, u4: string | undefined, u8: string | undefined) => {
    if (simple !== undefined) return SIMPLE_ESCAPES[simple];
    const code = u4 === undefined && u8 === undefined ? -1 : parseInt(u4 ?? u8!, 16);
    if (code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || '$%{'.includes(String.fromCodePoint(code))) {
      certain = false;
      return '';
    }
    return String.fromCodePoint(code);
  });
  return certain ? nfc(value) : undefined;
}

/** A word that does not occur in the text, so a placeholder cannot be mistaken for a value. */
function uniqueNonce(text: string): string {
  for (;;) {
    const nonce = crypto.randomBytes(8).toString('hex');
    if (!text.includes(nonce)) return nonce;
  }
}
