// A position in an HCL text, kept as the parser moves: the offset, and the line and its start, so
// that every item and every error has its line and column without a second pass over the text.
import { UserError } from '../shared/errors.js';
import type { Position } from './syntax.js';

/** Blocks, objects and lists counted together; deeper input is refused (a stack per level). */
export const MAX_NESTING = 100;

export class Cursor {
  pos = 0;
  line = 1;
  /** The offset where the current line starts. */
  lineStart = 0;
  /** Blocks, objects and lists open here. */
  depth = 0;

  constructor(
    readonly file: string,
    readonly text: string,
  ) {}

  peek(): string | undefined {
    return this.text[this.pos];
  }

  here(): Position {
    return { line: this.line, column: this.pos - this.lineStart + 1 };
  }

  /** The position of an offset on the current line. */
  at(offset: number): Position {
    return { line: this.line, column: offset - this.lineStart + 1 };
  }

  fail(message: string, where: Position = this.here()): never {
    throw new UserError({ file: this.file, line: where.line, column: where.column, message });
  }

  /** Past a newline at pos (`\n`, the `\r` of `\r\n` already skipped as a blank). */
  newline(): void {
    this.pos++;
    this.line++;
    this.lineStart = this.pos;
  }

  /** Opens a block, object or list; the line (no column) as the nesting guard has always said. */
  open(): void {
    if (++this.depth > MAX_NESTING) {
      throw new UserError({ file: this.file, line: this.line, message: `nested more than ${MAX_NESTING} levels deep (brackets, braces, blocks and interpolations); govern refuses deeper nesting` });
    }
  }

  close(): void {
    this.depth--;
  }

  /** Skips spaces, tabs, carriage returns and comments; newlines too when asked. */
  skipBlank(newlines: boolean): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 13) this.pos++;
      else if (c === 10 && newlines) this.newline();
      else if (c === 35 || (c === 47 && t.charCodeAt(this.pos + 1) === 47)) {
        const end = t.indexOf('\n', this.pos);
        this.pos = end < 0 ? t.length : end;
      } else if (c === 47 && t.charCodeAt(this.pos + 1) === 42) this.blockComment();
      else return;
    }
  }

  private blockComment(): void {
    const start = this.here();
    const end = this.text.indexOf('*/', this.pos + 2);
    if (end < 0) this.fail('this comment is not closed: a "/*" comment ends with "*/"', start);
    for (let nl = this.text.indexOf('\n', this.pos); nl >= 0 && nl < end; nl = this.text.indexOf('\n', nl + 1)) {
      this.line++;
      this.lineStart = nl + 1;
    }
    this.pos = end + 2;
  }

  /** The character at pos, for a message: `"x"`, or a name for what cannot be shown. */
  describeHere(): string {
    const c = this.text.codePointAt(this.pos);
    if (c === undefined) return 'the end of the file';
    if (c === 10) return 'the end of the line';
    if (c < 32 || c === 127) return `the control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    return JSON.stringify(String.fromCodePoint(c));
  }
}
