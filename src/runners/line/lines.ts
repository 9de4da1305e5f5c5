// A text file as lines of bytes, so that the lines an edit does not touch are written back byte for
// byte whatever their encoding; each line's text (UTF-8) is only for matching.

export interface Line {
  /** The line's bytes, without its "\n". */
  bytes: Buffer;
  /** The bytes as UTF-8 (invalid sequences as U+FFFD), for regular expressions. */
  text: string;
}

/** The lines of a file's content; a last line without "\n" is a line too. */
export function splitLines(content: Buffer): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < content.length) {
    const end = content.indexOf(0x0a, start);
    const stop = end < 0 ? content.length : end;
    const bytes = content.subarray(start, stop);
    lines.push({ bytes, text: bytes.toString('utf8') });
    start = stop + 1;
  }
  return lines;
}

/** Lines back to content, every line ending with "\n" (the last one included). */
export function joinLines(lines: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  const newline = Buffer.from('\n');
  for (const line of lines) parts.push(line, newline);
  return Buffer.concat(parts);
}
