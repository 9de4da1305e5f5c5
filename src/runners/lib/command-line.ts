// A command line as a state file writes it (exec's `command`, file's and line's `validate`): split
// into argv with a shell's quoting, refused where only a shell could run it, its program looked up
// in PATH as a shell would, and run with no shell.
import path from 'node:path';
import { parse, type ParseEntry } from 'shell-quote';
import { UserError } from '../../shared/errors.js';
import { findExecutable } from '../../shared/find-program.js';
import { describeChar } from '../../shared/validate.js';

/** Where programs are looked up when the environment has no PATH. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const SHELL_ONLY_WORDS = new Set([
  '.', ':', '!', '{', '}', 'alias', 'case', 'cd', 'eval', 'exec', 'exit', 'export', 'for', 'if',
  'read', 'readonly', 'return', 'set', 'shift', 'source', 'trap', 'ulimit', 'umask', 'unset', 'until', 'while',
]);

/** Splits a command into argv with shell quoting rules; throws if it needs a real shell. */
export function splitCommand(command: string): string[] {
  const refuse = (what: string) =>
    new UserError(`the posix provider runs commands without a shell, so ${what} in ${JSON.stringify(command)} cannot work: use provider = "shell" (or quote it, if you meant it literally)`);
  const unsupported = findShellSyntax(command);
  if (unsupported) throw refuse(unsupported);
  const variables: string[] = [];
  let tokens: ParseEntry[];
  try {
    tokens = parse(command, (name) => {
      if (name !== '') variables.push(name);
      return undefined;
    });
  } catch (e) {
    throw refuse(`the expansion (${(e as Error).message})`);
  }
  if (variables.length > 0) throw refuse(`the variable ${JSON.stringify('$' + variables[0])}`);
  const argv: string[] = [];
  for (const token of tokens) {
    if (typeof token === 'string') argv.push(token);
    else if ('comment' in token) throw refuse('"#" (which starts a comment)');
    else if (token.op === 'glob') throw refuse(`the glob ${JSON.stringify(token.pattern)}`);
    else throw refuse(`the shell operator ${JSON.stringify(token.op)}`);
  }
  if (argv.length === 0) throw new UserError(`the command ${JSON.stringify(command)} has no program to run`);
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(argv[0]);
  if (assignment) {
    throw new UserError(`the posix provider cannot run the variable assignment ${JSON.stringify(argv[0])}: set ${assignment[1]} with environment = ["${argv[0]}"]`);
  }
  return argv;
}

/**
 * The shell syntax shell-quote's parser passes through as literal text: command substitution with
 * backticks, a newline (a command separator), a leading ~ and a [...] glob. Quoted, they are literal.
 */
function findShellSyntax(command: string): string | undefined {
  let quote: '' | "'" | '"' = '';
  let wordStart = true;
  let openBracket = false;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote === "'") {
      if (ch === "'") quote = '';
      continue;
    }
    if (ch === '\\') {
      i++;
      wordStart = false;
      continue;
    }
    if (ch === '`') return 'the command substitution "`"';
    if (quote === '"') {
      if (ch === '"') quote = '';
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      wordStart = false;
    } else if (ch === '\n' || ch === '\r') {
      return `the line break ${describeChar(ch)}`;
    } else if (/[\s|&;()<>]/.test(ch)) {
      wordStart = true;
      openBracket = false;
    } else {
      if (ch === '~' && wordStart) return 'the home directory expansion "~"';
      if (ch === '[') openBracket = true;
      else if (ch === ']' && openBracket) return 'the glob "[...]"';
      wordStart = false;
    }
  }
  return undefined;
}

/** The program's path, looked up in `searchPath` as a shell would (a name with a "/" is used as it is). */
export function findProgram(program: string, searchPath: string | undefined): string {
  if (program.includes('/')) return program;
  const dirs = (searchPath ?? DEFAULT_PATH).split(':').filter((dir) => path.isAbsolute(dir));
  const found = findExecutable(program, dirs);
  if (found !== undefined) return found;
  const hint = SHELL_ONLY_WORDS.has(program) ? `; "${program}" is part of the shell: use provider = "shell"` : '';
  throw new UserError(`program ${JSON.stringify(program)} not found in PATH ${dirs.join(':')}${hint}`);
}
