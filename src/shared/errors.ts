// Errors a user can act on, shared by the core and the runners: printed as they are, without a
// stack trace, and nothing is applied. A problem travels as data (file, line, message) and becomes
// text only where it is printed, so `--json` can report it field by field.

/** Where something is written: a state file or template, and a line of it when known. */
export interface Location {
  file: string;
  /** A line of the file as the user wrote it. */
  line?: number;
  /** When no source line is known: the line of the rendered text (see `govern render`). */
  renderedLine?: number;
}

export interface Problem {
  file?: string;
  line?: number;
  renderedLine?: number;
  column?: number;
  message: string;
}

export class UserError extends Error {
  readonly problems: Problem[];

  /** One message, or every problem found in one pass (all the bad references of a state tree, say). */
  constructor(problems: string | Problem | Problem[]) {
    const list = typeof problems === 'string' ? [{ message: problems }] : Array.isArray(problems) ? problems : [problems];
    super(list.map(formatProblem).join('\n'));
    this.problems = list;
  }
}

/** A problem at a location. */
export function problemAt(where: Location | undefined, message: string): Problem {
  return where ? { ...where, message } : { message };
}

/** "file:12", "file (line 46 of the rendered text)" or "file". */
export function formatLocation(where: Location): string {
  if (where.line !== undefined) return `${where.file}:${where.line}`;
  if (where.renderedLine !== undefined) return `${where.file} (line ${where.renderedLine} of the rendered text)`;
  return where.file;
}

/** `file:line: message`, `file:line:column: message`, or the message alone. */
export function formatProblem(p: Problem): string {
  if (p.file === undefined) return p.message;
  const where = formatLocation({ file: p.file, line: p.line, renderedLine: p.renderedLine });
  return `${where}${p.line !== undefined && p.column !== undefined ? `:${p.column}` : ''}: ${p.message}`;
}

/** A system call's failure ("EACCES: permission denied, open '/etc/x'") is the user's to act on. */
export function asUserError(e: unknown): unknown {
  const errno = e as NodeJS.ErrnoException;
  if (e instanceof Error && typeof errno.code === 'string' && typeof errno.syscall === 'string') return new UserError(e.message);
  return e;
}
