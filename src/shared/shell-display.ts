// How govern prints an invocation so a user can paste it into a shell. Display only: nothing
// govern runs ever goes through a shell unless the user asked for the shell provider.
// shell-quote is loaded on the first word that needs it: most runs print no invocation, and every
// runner process loads this module.
let quote: typeof import('shell-quote').quote | undefined;

/** Words that need no quoting in any POSIX shell (shell-quote would still escape "="). */
const SAFE = /^[A-Za-z0-9_\-.,:/=@%+]+$/;

export function shellWord(word: string): string {
  if (SAFE.test(word)) return word;
  quote ??= (require('shell-quote') as typeof import('shell-quote')).quote;
  return quote([word]);
}

export function displayCommand(argv: string[], env: Record<string, string> = {}): string {
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellWord(v)}`);
  return [...assignments, ...argv.map(shellWord)].join(' ');
}
