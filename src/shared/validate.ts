// Validation patterns shared by the core and the runners. Anything that reaches a command line is
// checked here first, and the error names the offending character.

export class ValidationError extends Error {}

export interface CharRule {
  /** What the value is, for the message: "package name". */
  what: string;
  /** One allowed character. */
  char: RegExp;
  /** The allowed set, in words, for the message. */
  allowed: string;
}

/** The seeds' set for package and service names: letters, digits, . _ + : ~ - */
export const PACKAGE_NAME: CharRule = { what: 'package name', char: /[A-Za-z0-9._+:~-]/, allowed: 'letters, digits and . _ + : ~ -' };
export const SERVICE_NAME: CharRule = { ...PACKAGE_NAME, what: 'service name' };
/** Debian and RPM versions: the name set plus ^ (RPM's "sorts after"). */
export const PACKAGE_VERSION: CharRule = { what: 'version', char: /[A-Za-z0-9._+:~^-]/, allowed: 'letters, digits and . _ + : ~ ^ -' };

/** Throws a ValidationError naming the first character outside the rule. */
export function checkChars(rule: CharRule, value: string): string {
  if (value === '') throw new ValidationError(`${rule.what} is empty`);
  for (const ch of value) {
    if (!rule.char.test(ch)) {
      throw new ValidationError(`invalid ${rule.what} ${JSON.stringify(value)}: character ${describeChar(ch)} is not allowed (allowed: ${rule.allowed})`);
    }
  }
  if (value.startsWith('-')) throw new ValidationError(`invalid ${rule.what} ${JSON.stringify(value)}: it must not start with "-"`);
  return value;
}

export function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (ch === ' ') return 'space';
  return JSON.stringify(ch);
}

/** A runner (block type) name: it becomes a file name, so no paths. */
export const RUNNER_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
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
