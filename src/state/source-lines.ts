// Messages about a state file name a line of the file the user wrote, but the parser sees the rendered
// text, whose lines move when a template adds or removes lines. The renderer tells where each
// rendered line came from (templates/line-marks.ts); a line a helper produced has no source line,
// and the message then says which line of the rendered text it is (see `govern render`). Without the
// renderer's answer, a rendered line is mapped back by its text (the closest identical line).
import type { Location, Problem } from '../shared/errors.js';

export class SourceLines {
  private readonly identical: boolean;
  private sourceIndex: Map<string, number[]> | undefined;
  private renderedLines: string[] | undefined;

  constructor(
    private readonly file: string,
    private readonly source: string,
    private readonly rendered: string,
    /** The source line of each rendered line, from the renderer; empty when it could not tell. */
    private readonly sourceLines: readonly (number | undefined)[] = [],
  ) {
    this.identical = source === rendered;
  }

  /** The source location of a line of the rendered text. */
  where(renderedLine: number): Location {
    if (this.identical) return { file: this.file, line: renderedLine };
    if (this.sourceLines.length > 0) {
      const line = this.sourceLines[renderedLine - 1];
      return line !== undefined ? { file: this.file, line } : { file: this.file, renderedLine };
    }
    this.renderedLines ??= this.rendered.split('\n');
    const text = (this.renderedLines[renderedLine - 1] ?? '').trim();
    const best = text === '' ? undefined : closest(this.index().get(text) ?? [], renderedLine);
    return best !== undefined ? { file: this.file, line: best } : { file: this.file, renderedLine };
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

  /** A problem of this file whose line counts rendered lines (a parse error), moved to the source line. */
  relocate(problem: Problem): Problem {
    if (this.identical || problem.line === undefined) return problem;
    // The column counts the rendered line, which may differ from the source line: dropped.
    const { line, column: _column, ...rest } = problem;
    return { ...rest, ...this.where(line) };
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
