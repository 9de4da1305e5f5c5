// The decision: the desired line + the file as it is -> the new content and its message. Pure: it
// holds the decision table of docs/line.md and its noop wording.
import { UserError } from '../../shared/errors.js';
import { symlinkError } from '../lib/file/errors.js';
import type { ParentState } from '../lib/file/state.js';
import { joinLines, splitLines, type Line, type OutLine } from '../lib/text-edit/lines.js';
import type { LineProperties } from './properties.js';

/** What the runner found at the path. */
export type LineCurrent =
  | { type: 'absent'; parent: ParentState }
  | { type: 'file'; content: Buffer }
  | { type: 'symlink'; target: string }
  | { type: 'other'; kind: string };

export type Desired = Pick<LineProperties, 'path' | 'line' | 'match' | 'ensure' | 'after' | 'create' | 'multiple'>;

export interface Plan {
  changed: boolean;
  /** What was done, lower case: "added the line at the end", "replaced line 4". */
  summary: string;
  /** The file's new content, when it changes (or is created). */
  content?: Buffer;
  /** Worth a log line, not an error. */
  warnings: string[];
}

/** The result message: "Would have added the line at the end" in noop mode, else what was done. */
export function planMessage(plan: Plan, noop: boolean): string {
  return noop && plan.changed ? `Would have ${plan.summary}` : plan.summary;
}

export function decide(desired: Desired, current: LineCurrent, noop: boolean): Plan {
  const { path } = desired;
  const warnings: string[] = [];
  if (desired.match && desired.ensure === 'present' && !desired.match.test(desired.line)) {
    warnings.push(`the line does not match ${quote(desired.match)}: once it replaces the matching lines, match finds none`);
  }
  if (current.type === 'symlink') throw symlinkError(path, current.target);
  if (current.type === 'other') throw new UserError(`${path} is ${current.kind}, not a regular file; a line can only be managed in a regular file`);

  if (current.type === 'absent') {
    if (desired.ensure === 'absent') return unchanged(`${path} does not exist: the line is absent`, warnings);
    const problem = !desired.create
      ? `${path} does not exist (set create = true to create it with the line)`
      : current.parent !== 'directory'
        ? `the directory of ${path} ${current.parent === 'missing' ? 'does not exist' : 'is not a directory'}`
        : undefined;
    if (problem === undefined) return { changed: true, summary: `created ${path} with the line`, content: joinLines([{ bytes: Buffer.from(desired.line), crlf: false }]), warnings };
    // In noop mode an earlier resource, not applied, may be what creates it.
    if (!noop) throw new UserError(problem);
    warnings.push(`${problem}; an earlier resource may create it, otherwise the real run fails`);
    return { changed: true, summary: `added the line to ${path}, which does not exist yet`, warnings };
  }

  const lines = splitLines(current.content);
  const wanted = Buffer.from(desired.line);
  const isLine = (l: Line) => l.bytes.equals(wanted);
  const edit = (summary: string, kept: OutLine[]): Plan => ({ changed: true, summary, content: joinLines(kept), warnings });
  // The line takes the line break of the line it replaces, or of the line it follows.
  const wantedLike = (l: Line | undefined): OutLine => ({ bytes: wanted, crlf: l?.crlf ?? false });

  if (desired.ensure === 'absent') {
    const gone = numbersOf(lines, (l) => (desired.match ? desired.match.test(l.text) : isLine(l)));
    if (gone.length === 0) return unchanged('line absent', warnings);
    const removed = new Set(gone);
    return edit(`removed ${lineWords(gone)}`, lines.filter((_, i) => !removed.has(i + 1)));
  }

  if (desired.match) {
    const matching = numbersOf(lines, (l) => desired.match!.test(l.text));
    const differing = matching.filter((n) => !isLine(lines[n - 1]));
    if (differing.length > 0) {
      if (matching.length > 1 && !desired.multiple) {
        throw new UserError(`${matching.length} lines of ${path} match ${quote(desired.match)} (${lineWords(matching)}); set multiple = true to replace them all`);
      }
      const replaced = new Set(differing);
      return edit(`replaced ${lineWords(differing)}`, lines.map((l, i) => (replaced.has(i + 1) ? wantedLike(l) : l)));
    }
    if (matching.length > 0) return unchanged('line present', warnings);
  }
  if (lines.some(isLine)) return unchanged('line present', warnings);

  const anchor = desired.after ? numbersOf(lines, (l) => desired.after!.test(l.text)).pop() : undefined;
  if (anchor === undefined) {
    const where = desired.after ? `at the end (no line matches insert_after ${quote(desired.after)})` : 'at the end';
    return edit(`added the line ${where}`, [...lines, wantedLike(lines.at(-1))]);
  }
  return edit(`added the line after line ${anchor}`, [...lines.slice(0, anchor), wantedLike(lines[anchor - 1]), ...lines.slice(anchor)]);
}

function unchanged(summary: string, warnings: string[]): Plan {
  return { changed: false, summary, warnings };
}

/** 1-based numbers of the lines that pass the test. */
function numbersOf(lines: Line[], test: (line: Line) => boolean): number[] {
  const numbers: number[] = [];
  lines.forEach((l, i) => {
    if (test(l)) numbers.push(i + 1);
  });
  return numbers;
}

/** A regular expression as the state file gives it: "^\\s*Port". */
function quote(re: RegExp): string {
  return JSON.stringify(re.source);
}

/** Messages name at most this many line numbers. */
const NAMED_LINES = 10;

/** "line 4", "lines 4, 9 and 12", "lines 1, 2, ... 10 and 990 more". */
function lineWords(numbers: number[]): string {
  if (numbers.length === 1) return `line ${numbers[0]}`;
  if (numbers.length > NAMED_LINES) return `lines ${numbers.slice(0, NAMED_LINES).join(', ')} and ${numbers.length - NAMED_LINES} more`;
  return `lines ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}
