// Messages about a state file name a line of the file the user wrote, but hcl2json sees the rendered
// text, whose lines move when a template adds or removes lines. A rendered line is mapped back to the
// source by its text (the closest identical line); when no source line matches (it holds rendered
// values), the message says which line of the rendered text it is.

export class SourceLines {
  private readonly identical: boolean;
  private sourceIndex: Map<string, number[]> | undefined;
  private renderedLines: string[] | undefined;

  constructor(
    private readonly file: string,
    private readonly source: string,
    private readonly rendered: string,
  ) {
    this.identical = source === rendered;
  }

  /** "file:12" for a line of the rendered text. */
  where(renderedLine: number): string {
    if (this.identical) return `${this.file}:${renderedLine}`;
    this.renderedLines ??= this.rendered.split('\n');
    const text = (this.renderedLines[renderedLine - 1] ?? '').trim();
    const best = text === '' ? undefined : closest(this.index().get(text) ?? [], renderedLine);
    return best !== undefined ? `${this.file}:${best}` : `${this.file} (line ${renderedLine} of the rendered text)`;
  }

  /** Source line numbers by their trimmed text, in order. */
  private index(): Map<string, number[]> {
    if (!this.sourceIndex) {
      this.sourceIndex = new Map();
      this.source.split('\n').forEach((line, i) => {
        const key = line.trim();
        const list = this.sourceIndex!.get(key);
        if (list) list.push(i + 1);
        else this.sourceIndex!.set(key, [i + 1]);
      });
    }
    return this.sourceIndex;
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

/** The number in an ascending list closest to target (the first of two equally close). */
function closest(sorted: number[], target: number): number | undefined {
  let best: number | undefined;
  for (const n of sorted) {
    if (best === undefined || Math.abs(n - target) < Math.abs(best - target)) best = n;
    if (n > target) break;
  }
  return best;
}
