// Messages about a state file name a line of the file the user wrote, but hcl2json sees the rendered
// text, whose lines move when a template adds or removes lines. A rendered line is mapped back to the
// source by its text (the closest identical line); when no source line matches (it holds rendered
// values), the message says which line of the rendered text it is.

export class SourceLines {
  private readonly identical: boolean;
  private readonly sourceLines: string[];
  private readonly renderedLines: string[];

  constructor(
    private readonly file: string,
    source: string,
    rendered: string,
  ) {
    this.identical = source === rendered;
    this.sourceLines = source.split('\n').map((l) => l.trim());
    this.renderedLines = rendered.split('\n');
  }

  /** "file:12" for a line of the rendered text. */
  where(renderedLine: number): string {
    if (this.identical) return `${this.file}:${renderedLine}`;
    const text = (this.renderedLines[renderedLine - 1] ?? '').trim();
    let best: number | undefined;
    if (text !== '') {
      this.sourceLines.forEach((line, i) => {
        if (line === text && (best === undefined || Math.abs(i + 1 - renderedLine) < Math.abs(best - renderedLine))) best = i + 1;
      });
    }
    return best !== undefined ? `${this.file}:${best}` : `${this.file} (line ${renderedLine} of the rendered text)`;
  }

  /** Rewrites the `file:LINE:COL:` prefixes of parse errors (which count rendered lines). */
  relocate(message: string): string {
    if (this.identical) return message;
    const prefix = `${this.file}:`;
    return message
      .split('\n')
      .map((line) => {
        if (!line.startsWith(prefix)) return line;
        const m = /^(\d+):(\d+): ([\s\S]*)$/.exec(line.slice(prefix.length));
        return m ? `${this.where(Number(m[1]))}: ${m[3]}` : line;
      })
      .join('\n');
  }
}
