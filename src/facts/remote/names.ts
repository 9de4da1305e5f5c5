// What may go on the ssh command line: the host (an ssh argument) and the fact names (words of the
// command the remote user's shell runs). Checked before any connection, so a value from a template
// can neither become an ssh option nor reach the remote shell as anything but a plain word.
import { checkChars, type CharRule } from '../../shared/validate.js';

/** ssh_config aliases, DNS names, IPv4, IPv6 (bare or in brackets), user@host. */
export const HOST_NAME: CharRule = { what: 'host', char: /[A-Za-z0-9._:@[\]-]/, allowed: 'letters, digits and . - _ : @ [ ]' };

/** Fact names are paths under a facts directory. */
export const FACT_NAME: CharRule = { what: 'fact name', char: /[A-Za-z0-9._+:/-]/, allowed: 'letters, digits and . _ + : / -' };

/** Throws a UserError naming the bad character, or the leading "-". */
export function checkHost(host: string): string {
  return checkChars(HOST_NAME, host);
}

export function checkFactName(name: string): string {
  return checkChars(FACT_NAME, name);
}
