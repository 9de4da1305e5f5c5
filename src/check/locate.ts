// A problem as an editor or a CI annotation shows it: the file relative to the tree, and a range
// (line, column, end line, end column; 1-based, the end just past the last character). A problem
// with a column covers the word or quoted string that starts there; one with a line only, that
// line from its first character to its end; one without a file, the tree.
import path from 'node:path';
import type { Problem } from '../shared/errors.js';
import { readSourceFile } from '../shared/source-file.js';

export interface CheckProblem {
  /** Relative to the tree's directory; undefined for a problem of the tree as a whole. */
  file?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  message: string;
  /** The phase that found it: data, state (render, parse, modules), templates, resources. */
  rule: CheckRule;
  /** The hosts (facts snapshots) it was found for; undefined without snapshots. */
  hosts?: string[];
}

export type CheckRule = 'data' | 'state' | 'templates' | 'resources';

const TOKEN = /"(?:[^"\\\n]|\\.)*"?|[^\s=,{}[\]()"]+/y;

export class Locator {
  private readonly lines = new Map<string, string[] | undefined>();

  constructor(private readonly root: string) {}

  locate(p: Problem, rule: CheckRule): CheckProblem {
    if (p.file === undefined) return { message: p.message, rule };
    const file = this.relative(p.file);
    const line = p.line ?? p.renderedLine;
    if (line === undefined || p.line === undefined) return { file, message: p.message, rule, ...(line !== undefined ? { line } : {}) };
    const text = this.linesOf(p.file)?.[line - 1] ?? '';
    const first = text.length - text.trimStart().length + 1;
    const column = p.column ?? first;
    let end = text.length + 1;
    if (p.column !== undefined) {
      TOKEN.lastIndex = p.column - 1;
      const m = TOKEN.exec(text);
      end = m && m[0].length > 0 ? p.column + m[0].length : p.column + 1;
    }
    return { file, line, column, endLine: line, endColumn: Math.max(end, column + 1), message: p.message, rule };
  }

  private relative(file: string): string {
    const full = path.resolve(file);
    return full.startsWith(this.root + path.sep) ? full.slice(this.root.length + 1) : file;
  }

  private linesOf(file: string): string[] | undefined {
    if (!this.lines.has(file)) {
      let text: string | undefined;
      try {
        text = readSourceFile(file);
      } catch {
        text = undefined;
      }
      this.lines.set(file, text?.split('\n'));
    }
    return this.lines.get(file);
  }
}
