// An encrypted value as one string of a data file (docs/secrets.md):
//   ENC[age,to=web+alice,<base64 of the binary age file>]
// `to` names the recipients it was encrypted for, as given to `govern secret set --to` (groups
// unexpanded, so that `govern secret rekey` can encrypt again to a group's current members); the
// rest is the age file (age-encryption.org/v1) in standard base64, on one line so `git diff` shows
// which key changed.
import type { AttrValue } from '../shared/protocol.js';

export interface EncryptedValue {
  /** Names of recipients.hcl (hosts, people or groups). */
  to: string[];
  /** The age file. */
  ciphertext: Buffer;
}

const ENCRYPTED = /^ENC\[age,to=([A-Za-z0-9_.+-]*),([A-Za-z0-9+/]*={0,2})\]$/;
/** A name in recipients.hcl, and so in `to=`. */
export const RECIPIENT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function isEncrypted(value: AttrValue | undefined): value is string {
  return typeof value === 'string' && value.startsWith('ENC[');
}

/** The parts of an encrypted value; a string that starts `ENC[` but is malformed is an Error. */
export function parseEncrypted(text: string): EncryptedValue {
  const m = ENCRYPTED.exec(text);
  if (!m) throw new Error('a value starting "ENC[" is not of the form ENC[age,to=NAME+NAME,BASE64] (docs/secrets.md)');
  const to = m[1] === '' ? [] : m[1].split('+');
  if (!to.every((name) => RECIPIENT_NAME.test(name))) throw new Error(`ENC[age,to=${m[1]},...]: a recipient name is empty or not a name`);
  return { to, ciphertext: Buffer.from(m[2], 'base64') };
}

export function formatEncrypted(value: EncryptedValue): string {
  return `ENC[age,to=${value.to.join('+')},${value.ciphertext.toString('base64')}]`;
}

/** Whether a value holds an encrypted string anywhere in it (a list or map can hold some). */
export function holdsEncrypted(value: AttrValue): boolean {
  if (isEncrypted(value)) return true;
  if (Array.isArray(value)) return value.some(holdsEncrypted);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsEncrypted);
  return false;
}

/** The value with each encrypted string replaced by what reveal returns for it. */
export function mapEncrypted(value: AttrValue, reveal: (text: string) => string): AttrValue {
  if (isEncrypted(value)) return reveal(value);
  if (Array.isArray(value)) return value.map((v) => mapEncrypted(v, reveal));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapEncrypted(v, reveal)]));
  return value;
}
