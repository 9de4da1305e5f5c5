// How govern prints an invocation so a user can paste it into a shell. Display only: nothing
// govern runs ever goes through a shell unless the user asked for the shell provider.
import { quote } from 'shell-quote';

/** Words that need no quoting in any POSIX shell (shell-quote would still escape "="). */
const SAFE = /^[A-Za-z0-9_\-.,:/=@%+]+$/;

export function shellWord(word: string): string {
  return SAFE.test(word) ? word : quote([word]);
}

export function displayCommand(argv: string[], env: Record<string, string> = {}): string {
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellWord(v)}`);
  return [...assignments, ...argv.map(shellWord)].join(' ');
}
