// What `govern --help` prints: the command index, and nothing else loaded. bin/govern prints it from a
// bundle of this module alone (dist/bundle/usage.js), without starting the core.
import { COMMANDS } from './command-index.js';

export function usage(): string {
  const lines = COMMANDS.map((c) => `  ${c.usage.padEnd(44)} ${c.summary}`);
  return (
    `govern: configuration management for the local host\n\nusage:\n${lines.join('\n')}\n` +
    `  ${'govern help COMMAND'.padEnd(44)} a command's options (also govern COMMAND --help)\n  govern --version\n`
  );
}

/** The command lines bin/govern answers from this module alone: `govern --help`, `-h`, `help`. */
export function asksUsage(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help');
}

/** Prints the usage; a reader that goes away (`govern --help | head`) is no error. */
export function printUsage(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
  process.stdout.write(usage());
}
