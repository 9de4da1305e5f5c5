// Whether a commit may configure this host: with an allowed signers file (git's SSH signing:
// gpg.format=ssh, gpg.ssh.allowedSignersFile), only a commit with a good signature by one of its
// keys. git's own verdict (%G?) says why a commit is refused; nothing reads its messages. The rule
// of `govern pull --allowed-signers` and of the git runner's `allowed_signers`.
import type { RunResult } from './process.js';

export type Verdict = { ok: true; signer: string; key: string } | { ok: false; reason: string };

/** Runs git in the repository at hand, with these `-c` settings, whatever its exit status. */
export type GitIn = (args: string[], config: Record<string, string>) => Promise<RunResult>;

const REFUSALS: Record<string, string> = {
  N: 'it is not signed',
  B: 'its signature is bad (the commit or the signature was altered)',
  U: 'it is signed by a key that is not in the allowed signers file',
  E: 'its signature cannot be checked',
  X: 'its signature has expired',
  Y: 'it is signed by a key that has expired',
  R: 'it is signed by a revoked key',
};

/** `failed` words the error of a git command that could not answer (`git log` on a commit it cannot read). */
export async function verifyCommit(git: GitIn, commit: string, allowedSigners: string, failed: (what: string, result: RunResult) => Error): Promise<Verdict> {
  const config = { 'gpg.format': 'ssh', 'gpg.ssh.allowedSignersFile': allowedSigners };
  const shown = await git(['log', '-1', '--no-show-signature', '--format=%G?%x00%GS%x00%GK', commit], config);
  if (shown.code !== 0) throw failed('log', shown);
  const [code, signer, key] = shown.stdout.trim().split('\0');
  if (code !== 'G') return { ok: false, reason: REFUSALS[code] ?? `git's verdict on its signature is "${code}"` };
  // The verdict again by verify-commit's exit status, which is what git itself relies on.
  const verified = await git(['verify-commit', commit], config);
  if (verified.code !== 0) return { ok: false, reason: 'git verify-commit refuses its signature' };
  return { ok: true, signer, key };
}
