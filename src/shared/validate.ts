// Validation patterns shared by the core and the runners. Anything that reaches a command line is
// checked here first, and the error names the offending character.
import { UserError } from './errors.js';

export interface CharRule {
  /** What the value is, for the message: "package name". */
  what: string;
  /** One allowed character. */
  char: RegExp;
  /** The allowed set, in words, for the message. */
  allowed: string;
}

/** The seeds' set for package and service names, as a character class: letters, digits, . _ + : ~ - */
export const PACKAGE_NAME_CHARS = 'A-Za-z0-9._+:~-';
/** Debian and RPM versions: the name set plus ^ (RPM's "sorts after"). */
export const VERSION_CHARS = 'A-Za-z0-9._+:~^-';

/** Throws a UserError naming the first character outside the rule. */
export function checkChars(rule: CharRule, value: string): string {
  const problem = charsProblem(rule.char, value);
  if (problem === undefined) return value;
  if (value === '') throw new UserError(`${rule.what} is empty`);
  throw new UserError(`invalid ${rule.what} ${JSON.stringify(value)}: ${problem}${problem.startsWith('character') ? ` (allowed: ${rule.allowed})` : ''}`);
}

/** Why a value breaks a character rule (the first character outside it, a leading "-", `.` or `..`), or undefined. */
export function charsProblem(char: RegExp, value: string): string | undefined {
  if (value === '') return 'it is empty';
  for (const ch of value) {
    if (!char.test(ch)) return `character ${describeChar(ch)} is not allowed`;
  }
  if (value.startsWith('-')) return 'it must not start with "-"';
  // Names become file names (/etc/sv/NAME, /etc/init.d/NAME): these two would name a directory above.
  if (value === '.' || value === '..') return `it must not be ${JSON.stringify(value)} (a path, not a name)`;
  return undefined;
}

export function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (ch === ' ') return 'space';
  return JSON.stringify(ch);
}

/** A runner (block type) name: it becomes a file name, so no paths. */
export const RUNNER_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** A signal name (notify strings, GOVERN_SIGNAL, a runner's description). */
export const SIGNAL_NAME = /^[A-Za-z0-9_.-]+$/;
/** An attribute key as it appears in `key=value`. */
export const ATTRIBUTE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A resource name goes to a runner as argv[1]: no control characters, and no leading "-" (an option). */
export function checkResourceName(name: string): string | undefined {
  if (name === '') return 'the resource name is empty';
  if (name.startsWith('-')) return `resource name ${JSON.stringify(name)} must not start with "-"`;
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) return `resource name ${JSON.stringify(name)} contains the control character ${describeChar(ch)}`;
  }
  return undefined;
}
