// What `govern --help` prints: the command index, and nothing else loaded. bin/govern prints it from a
// bundle of this module alone (dist/bundle/usage.js), without starting the core.
import fs from 'node:fs';
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

/**
 * Prints the usage; a reader that goes away (`govern --help | head`) is no error. Written to the file
 * descriptor itself: process.stdout would load Node's streams and sockets, most of what `--help`
 * costs beyond Node's own start (bench/README.md, "Round eight").
 */
export function printUsage(): void {
  const text = Buffer.from(usage());
  let at = 0;
  try {
    while (at < text.length) at += fs.writeSync(1, text, at);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') return writeFailed(e as Error);
    // A non-blocking output whose reader is behind: Node's stream waits for it.
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') writeFailed(err);
    });
    process.stdout.write(text.subarray(at));
  }
}

/** As coreutils say it (`echo > /dev/full`): the reason, and exit 1. */
function writeFailed(e: Error): void {
  try {
    fs.writeSync(2, `govern: cannot write the usage: ${e.message}\n`);
  } catch {
    // no stderr either
  }
  process.exitCode = 1;
}
