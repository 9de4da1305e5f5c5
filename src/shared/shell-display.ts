// How govern prints an invocation so a user can paste it into a shell. Display only: nothing
// govern runs ever goes through a shell unless the user asked for the shell provider.
import { quote } from 'shell-quote';

export function displayCommand(argv: string[], env: Record<string, string> = {}): string {
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${quote([v])}`);
  return [...assignments, quote(argv)].join(' ');
}
