// age's encryption through Debian's `age` program (docs/secrets.md says why): the recipients'
// public keys and the identity's path in argv, the plain text and the age file only through stdin
// and stdout, never a shell, never a temporary file. Decryption with the identities a host uses (an
// ed25519 SSH key, age X25519 keys) is done in process, without a process per value; the program
// decrypts with any other identity.
import { spawnSync } from 'node:child_process';
import { AgeFormatError, decryptAge, type AgeIdentity } from './age-format.js';
import { readIdentityFile } from './age-identity-file.js';

export const AGE_PROGRAM = 'age';

export class AgeError extends Error {}

const AGE_TIMEOUT_MS = 60_000;

function runAge(args: string[], input: Buffer): Buffer {
  // Bounded: an identity protected by a passphrase makes age wait for a terminal that a timer's run has not.
  const result = spawnSync(AGE_PROGRAM, args, { input, maxBuffer: 64 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'], timeout: AGE_TIMEOUT_MS, killSignal: 'SIGKILL' });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    if (code === 'ETIMEDOUT') throw new AgeError(`age did not finish within ${AGE_TIMEOUT_MS / 1000} s (an identity protected by a passphrase?) and was killed`);
    throw new AgeError(code === 'ENOENT' ? 'the age program is not installed (Debian package "age")' : `age: ${result.error.message}`);
  }
  // age's own messages never hold the plain text: they name keys, files and what went wrong.
  if (result.status !== 0) throw new AgeError(ageMessage(result.stderr.toString('utf8')));
  return result.stdout;
}

function ageMessage(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.startsWith('age: error:'));
  return (lines[0] ?? stderr.trim().split('\n')[0] ?? 'age failed').replace(/^age: error: /, '');
}

/** recipients: public keys, each "age1..." or "ssh-ed25519 AAAA..."; the result is a binary age file. */
export function encrypt(plaintext: string | Buffer, recipients: readonly string[]): Buffer {
  if (recipients.length === 0) throw new AgeError('no recipients to encrypt to');
  return runAge(['--encrypt', ...recipients.flatMap((key) => ['--recipient', key])], typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a plain text, or an AgeError: a value that is not UTF-8 would not come out as it went in. */
export function utf8Text(plain: Buffer, what = 'the decrypted value'): string {
  try {
    return UTF8.decode(plain);
  } catch {
    throw new AgeError(`${what} is not UTF-8 text: govern's data values are text (encode binary data in base64 first)`);
  }
}

/**
 * Decryption with one identity file (a file of age identities or an SSH private key), read once,
 * when the first value is decrypted.
 */
export function decrypter(identity: string): (ciphertext: Buffer) => string {
  let identities: AgeIdentity[] | undefined;
  let read = false;
  return (ciphertext) => {
    try {
      if (!read) {
        identities = readIdentityFile(identity);
        read = true;
      }
      const plain = identities === undefined ? runAge(['--decrypt', '--identity', identity], ciphertext) : decryptAge(ciphertext, identities);
      try {
        return utf8Text(plain);
      } finally {
        plain.fill(0);
      }
    } catch (e) {
      if (e instanceof AgeError) throw e;
      if (e instanceof AgeFormatError) throw new AgeError(e.message);
      const error = e as NodeJS.ErrnoException;
      if (error.syscall !== undefined) throw new AgeError(`reading the identity file: ${error.message}`);
      throw e;
    }
  };
}

/** The public keys of the X25519 identities of an identity file govern reads itself. */
export function ownAgeKeys(identity: string): Buffer[] {
  try {
    return (readIdentityFile(identity) ?? []).flatMap((id) => (id.x25519Public ? [id.x25519Public] : []));
  } catch {
    return [];
  }
}

export function decrypt(ciphertext: Buffer, identity: string): string {
  return decrypter(identity)(ciphertext);
}
