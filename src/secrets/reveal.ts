// Decryption while planning: a data value holding ENC[age,...] strings is decrypted, in memory,
// with the host's identity when a template reads it, and comes out marked sensitive, so that it
// taints what it reaches as a secret/ fact does (docs/secrets.md). A value no template reads is
// never decrypted: a host is refused only what it uses. A preview (`govern plan`, `govern diff`) runs
// where not every host's identity is: there a value it cannot decrypt stands for `<sensitive>`.
import type { DataFound } from '../data/source.js';
import { UserError } from '../shared/errors.js';
import { addSecretText } from '../shared/secret-texts.js';
import { SENSITIVE } from '../shared/sensitive.js';
import { decrypter } from './age.js';
import { holdsEncrypted, mapEncrypted, parseEncrypted } from './format.js';

/** The host's SSH host key: root's alone, and the key recipients.hcl names the host by. */
export const DEFAULT_IDENTITY = '/etc/ssh/ssh_host_ed25519_key';

export type Reveal = (key: string, found: DataFound) => DataFound;

/**
 * What a value the identity cannot decrypt becomes: an error naming it (a run, which must not apply
 * a half-known configuration), or `<sensitive>` (a preview, whose machine holds no host's key).
 * A value that is not a well-formed ENC[...] is an error either way: the tree is wrong.
 */
export type Unreadable = 'error' | 'sensitive';

/**
 * A value that cannot be decrypted: a problem at the data file's line for any reader (a module's
 * parameter, a run's report), and as a template helper's message `"KEY" (FILE:LINE): why`.
 */
export class SecretValueError extends UserError {
  constructor(key: string, origins: DataFound['origins'], why: string) {
    const first = origins[0];
    super({ file: first.file, ...(first.line !== undefined ? { line: first.line } : {}), message: `data "${key}": ${why}` });
    this.message = `"${key}" (${origins.map((o) => `${o.file}${o.line !== undefined ? `:${o.line}` : ''}`).join(', ')}): ${why}`;
  }
}

export function revealWith(identity: string = DEFAULT_IDENTITY, unreadable: Unreadable = 'error'): Reveal {
  const plain = new Map<string, string>();
  const unread = new Set<string>();
  const decrypt = decrypter(identity);
  return (key, found) => {
    if (!holdsEncrypted(found.value)) return found;
    let placeholder = false;
    const value = mapEncrypted(found.value, (text) => {
      let revealed = plain.get(text);
      if (revealed === undefined) {
        try {
          const { to, ciphertext } = parseEncrypted(text);
          try {
            revealed = decrypt(ciphertext);
          } catch (e) {
            if (unreadable === 'sensitive') {
              revealed = SENSITIVE;
              unread.add(text);
            } else throw new Error(`cannot decrypt with the identity ${identity} (the value is for ${to.join('+') || 'no one named'}): ${(e as Error).message}`);
          }
        } catch (e) {
          throw new SecretValueError(key, found.origins, (e as Error).message);
        }
        if (revealed !== SENSITIVE) addSecretText(revealed);
        plain.set(text, revealed);
      }
      if (unread.has(text)) placeholder = true;
      return revealed;
    });
    return { ...found, value, sensitive: true, ...(placeholder ? { unread: true } : {}) };
  };
}
