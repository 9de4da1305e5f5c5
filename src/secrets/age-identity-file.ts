// An identity file as `age --identity` takes it, for decryption in process: an OpenSSH ed25519
// private key without a passphrase (a host key), or a file of "AGE-SECRET-KEY-1..." lines (from
// age-keygen). Any other kind (a key protected by a passphrase, an ssh-rsa key, a passphrase-
// encrypted identity file, a plugin's identities) is left to the age program.
import fs from 'node:fs';
import type { AgeIdentity } from './age-format.js';
import { readOpenSshEd25519, sshEd25519Identity } from './age-ssh-ed25519.js';
import { x25519Identity } from './age-x25519.js';

/** The identities of the file govern can use itself, or undefined when the age program must read it. */
export function readIdentityFile(file: string): AgeIdentity[] | undefined {
  const text = fs.readFileSync(file, 'latin1');
  if (text.startsWith('-----BEGIN')) {
    const key = readOpenSshEd25519(text);
    return key === undefined ? undefined : [sshEd25519Identity(key)];
  }
  const identities: AgeIdentity[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (!line.startsWith('AGE-SECRET-KEY-1')) return undefined;
    identities.push(x25519Identity(line));
  }
  return identities.length > 0 ? identities : undefined;
}
