// age's encryption through Debian's `age` program (docs/secrets.md says why not a library): the
// recipients' public keys and the identity's path in argv, the plain text and the age file only
// through stdin and stdout, never a shell, never a temporary file.
import { spawnSync } from 'node:child_process';

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
export function encrypt(plaintext: string, recipients: readonly string[]): Buffer {
  if (recipients.length === 0) throw new AgeError('no recipients to encrypt to');
  return runAge(['--encrypt', ...recipients.flatMap((key) => ['--recipient', key])], Buffer.from(plaintext, 'utf8'));
}

/** identity: a file of age identities or an SSH private key (an ed25519 host key). */
export function decrypt(ciphertext: Buffer, identity: string): string {
  return runAge(['--decrypt', '--identity', identity], ciphertext).toString('utf8');
}
