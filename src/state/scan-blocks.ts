// hcl2json groups blocks by type and sorts them by name, losing the order a user wrote them in.
// This scanner recovers the top-level items of an HCL text in source order, with their lines: it
// reads each header (`type "label" {`) and skips bodies and expressions, minding strings (with their
// interpolations), heredocs and comments. It runs on text hcl2json has already accepted.

/** An attribute or nested block of a body, and the line it starts on. */
export interface BodyKey {
  name: string;
  line: number;
}

export type TopLevelItem =
  /** keys: the body's attribute and nested block names, in source order (each once, at its first line). */
  | { kind: 'block'; type: string; labels: string[]; line: number; keys: BodyKey[] }
  | { kind: 'attribute'; name: string; line: number };

const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z0-9_-]/;
const STRING_SPECIAL = /["\\$%]/g;

export function scanTopLevel(text: string): TopLevelItem[] {
  return new Scanner(text).items();
}

class Scanner {
  private pos = 0;
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  items(): TopLevelItem[] {
    const items: TopLevelItem[] = [];
    for (;;) {
      this.skipSpace(true);
      if (this.pos >= this.text.length) return items;
      const line = this.lineAt(this.pos);
      const name = this.identifier();
      if (name === undefined) throw new Error(`unexpected ${JSON.stringify(this.text[this.pos])} at line ${line}`);
      this.skipSpace(false);
      if (this.text[this.pos] === '=') {
        this.pos++;
        this.skipExpression();
        items.push({ kind: 'attribute', name, line });
        continue;
      }
      const labels = this.labels();
      items.push({ kind: 'block', type: name, labels, line, keys: this.body() });
    }
  }

  /** Block labels up to and including the opening brace. */
  private labels(): string[] {
    const labels: string[] = [];
    for (;;) {
      this.skipSpace(false);
      const ch = this.text[this.pos];
      if (ch === '"') labels.push(this.quotedString());
      else if (ch === '{') {
        this.pos++;
        return labels;
      } else {
        const label = this.identifier();
        if (label === undefined) throw new Error(`unexpected ${JSON.stringify(ch)} in a block header at line ${this.lineAt(this.pos)}`);
        labels.push(label);
      }
    }
  }

  /** A block body (its brace consumed): the names of its items in order, up to the closing brace. */
  private body(): BodyKey[] {
    const keys: BodyKey[] = [];
    for (;;) {
      this.skipSpace(true);
      if (this.pos >= this.text.length) return keys;
      if (this.text[this.pos] === '}') {
        this.pos++;
        return keys;
      }
      const line = this.lineAt(this.pos);
      const name = this.identifier();
      if (name === undefined) {
        this.pos++;
        continue;
      }
      if (!keys.some((key) => key.name === name)) keys.push({ name, line });
      this.skipSpace(false);
      if (this.text[this.pos] === '=') {
        this.pos++;
        this.skipExpression();
      } else {
        this.labels();
        this.body();
      }
    }
  }

  private lineAt(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  private identifier(): string | undefined {
    if (!IDENT_START.test(this.text[this.pos] ?? '')) return undefined;
    const start = this.pos;
    while (IDENT_CHAR.test(this.text[this.pos] ?? '')) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** Skips blanks and comments; newlines too when asked. */
  private skipSpace(newlines: boolean): void {
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === ' ' || ch === '\t' || ch === '\r' || (newlines && ch === '\n')) this.pos++;
      else if (!this.skipComment()) return;
    }
  }

  private skipComment(): boolean {
    const t = this.text;
    if (t[this.pos] === '#' || (t[this.pos] === '/' && t[this.pos + 1] === '/')) {
      while (this.pos < t.length && t[this.pos] !== '\n') this.pos++;
      return true;
    }
    if (t[this.pos] === '/' && t[this.pos + 1] === '*') {
      const end = t.indexOf('*/', this.pos + 2);
      this.pos = end < 0 ? t.length : end + 2;
      return true;
    }
    return false;
  }

  /** An attribute's expression: up to the end of the line (or a block's closing brace) outside brackets. */
  private skipExpression(): void {
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === '\n' || ch === '}') return;
      if (this.skipNested()) continue;
      this.pos++;
    }
  }

  /** Skips to just past the bracket that closes the one already consumed. */
  private skipUntilClose(close: string): void {
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === close) {
        this.pos++;
        return;
      }
      if (this.skipNested()) continue;
      this.pos++;
    }
  }

  /** Skips a string, heredoc, comment or bracketed group starting here; false if none starts here. */
  private skipNested(): boolean {
    const t = this.text;
    const ch = t[this.pos];
    if (ch === '"') {
      this.quotedString(false);
      return true;
    }
    if (ch === '<' && t[this.pos + 1] === '<' && this.heredoc()) return true;
    if (this.skipComment()) return true;
    const close = ch === '{' ? '}' : ch === '[' ? ']' : ch === '(' ? ')' : undefined;
    if (close) {
      this.pos++;
      this.skipUntilClose(close);
      return true;
    }
    return false;
  }

  private heredoc(): boolean {
    const match = /<<-?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/y;
    match.lastIndex = this.pos;
    const m = match.exec(this.text);
    if (!m) return false;
    this.pos = match.lastIndex;
    const marker = m[1];
    while (this.pos < this.text.length) {
      const end = this.text.indexOf('\n', this.pos);
      const lineEnd = end < 0 ? this.text.length : end;
      const line = this.text.slice(this.pos, lineEnd);
      this.pos = lineEnd;
      if (line.trim() === marker) return true;
      this.pos++;
    }
    return true;
  }

  /** Reads a quoted string (the opening quote is here) and returns its literal value (if kept). */
  private quotedString(keep = true): string {
    const t = this.text;
    this.pos++;
    let value = '';
    while (this.pos < t.length) {
      const ch = t[this.pos];
      if (ch === '"') {
        this.pos++;
        return value;
      }
      if (ch === '\\') {
        const [decoded, length] = decodeEscape(t, this.pos);
        if (keep) value += decoded;
        this.pos += length;
        continue;
      }
      if ((ch === '$' || ch === '%') && t[this.pos + 1] === ch && t[this.pos + 2] === '{') {
        value += ch + '{';
        this.pos += 3;
        continue;
      }
      if ((ch === '$' || ch === '%') && t[this.pos + 1] === '{') {
        const start = this.pos;
        this.pos += 2;
        this.skipUntilClose('}');
        value += t.slice(start, this.pos);
        continue;
      }
      // Plain text up to the next character that means something here, in one piece (a string
      // built a character at a time costs gigabytes for a value of 50 MB).
      STRING_SPECIAL.lastIndex = this.pos + 1;
      const end = STRING_SPECIAL.exec(t)?.index ?? t.length;
      if (keep) value += t.slice(this.pos, end);
      this.pos = end;
    }
    return value;
  }
}

function decodeEscape(t: string, pos: number): [string, number] {
  const c = t[pos + 1];
  const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };
  if (simple[c] !== undefined) return [simple[c], 2];
  if (c === 'u' || c === 'U') {
    const digits = c === 'u' ? 4 : 8;
    const hex = t.slice(pos + 2, pos + 2 + digits);
    return [String.fromCodePoint(parseInt(hex, 16)), 2 + digits];
  }
  return [c ?? '', 2];
}
