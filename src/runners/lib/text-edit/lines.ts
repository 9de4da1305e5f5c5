// A text file as lines of bytes (the line, ini and block runners), so that the lines an edit does not touch are written back byte for
// byte whatever their encoding; each line's text (UTF-8) is only for matching. A line keeps its own
// line break, "\n" or "\r\n", so a file with CRLF line breaks is matched without the "\r" and keeps
// its line breaks (docs/line.md, "CRLF").

export interface Line {
  /** The line's bytes, without its line break ("\n", or "\r\n"). */
  bytes: Buffer;
  /** The bytes as UTF-8 (invalid sequences as U+FFFD), for regular expressions. */
  text: string;
  /** Whether its line break is "\r\n"; the last line without one takes the line before it's. */
  crlf: boolean;
}

/** What a new or replaced line is written with: its bytes, and "\r\n" rather than "\n". */
export interface OutLine {
  bytes: Buffer;
  crlf: boolean;
}

/** The lines of a file's content; a last line without "\n" is a line too. */
export function splitLines(content: Buffer): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < content.length) {
    const end = content.indexOf(0x0a, start);
    const crlf = end < 0 ? (lines.at(-1)?.crlf ?? false) : end > start && content[end - 1] === 0x0d;
    const stop = end < 0 ? content.length : crlf ? end - 1 : end;
    const bytes = content.subarray(start, stop);
    lines.push({ bytes, text: bytes.toString('utf8'), crlf });
    start = end < 0 ? content.length : end + 1;
  }
  return lines;
}

const LF = Buffer.from('\n');
const CRLF = Buffer.from('\r\n');

/** Lines back to content, every line ending with its line break (the last one included). */
export function joinLines(lines: readonly OutLine[]): Buffer {
  const parts: Buffer[] = [];
  for (const line of lines) parts.push(line.bytes, line.crlf ? CRLF : LF);
  return Buffer.concat(parts);
}

/**
 * As joinLines, but a file whose last line had no line break keeps it that way while that line is
 * still the last one: an edit elsewhere changes no byte of it.
 */
export function joinLinesKeepingEnd(original: readonly Line[], content: Buffer, lines: readonly OutLine[]): Buffer {
  const joined = joinLines(lines);
  const last = original.at(-1);
  if (last === undefined || content.at(-1) === 0x0a || lines.at(-1) !== last) return joined;
  return joined.subarray(0, joined.length - (last.crlf ? 2 : 1));
}
