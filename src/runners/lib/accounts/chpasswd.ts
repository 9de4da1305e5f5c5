// Setting a password hash, for every account provider: `chpasswd -e` (shadow-utils' and busybox's
// alike) reads "name:hash" on stdin, so the hash is never on a command line (every local user can
// read those in /proc).
import { act, type ProviderContext } from '../../../shared/command-runner.js';
import { COMMAND_TIMEOUT_MS } from './database.js';

export async function setPasswordHash(context: ProviderContext, name: string, hash: string): Promise<void> {
  await act(context, ['chpasswd', '-e'], { timeoutMs: COMMAND_TIMEOUT_MS, input: `${name}:${hash}\n` });
}
