// Errors a user can act on: printed as they are, without a stack trace, and nothing is applied.

export class UserError extends Error {}

/** Several problems found in one pass (all the bad references of a state tree, say). */
export class UserErrors extends UserError {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** `file:line: message`, or `file: message` when the line is unknown. */
export function located(file: string, line: number | undefined, message: string): string {
  return line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`;
}
