// age's encryption through Debian's `age` program (docs/secrets.md says why not a library): the
// recipients' public keys and the identity's path in argv, the plain text and the age file only
// through stdin and stdout, never a shell, never a temporary file.
import { spawnSync } from 'node:child_process';

export const AGE_PROGRAM = 'age';

export class AgeError extends Error {}

function runAge(args: string[], input: Buffer): Buffer {
  const result = spawnSync(AGE_PROGRAM, args, { input, maxBuffer: 64 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new AgeError(missing ? 'the age program is not installed (Debian package "age")' : `age: ${result.error.message}`);
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
export function encrypt(plaintext: string, recipients: readonly string[]): Buffer {
  if (recipients.length === 0) throw new AgeError('no recipients to encrypt to');
  return runAge(['--encrypt', ...recipients.flatMap((key) => ['--recipient', key])], Buffer.from(plaintext, 'utf8'));
}

/** identity: a file of age identities or an SSH private key (an ed25519 host key). */
export function decrypt(ciphertext: Buffer, identity: string): string {
  return runAge(['--decrypt', '--identity', identity], ciphertext).toString('utf8');
}
