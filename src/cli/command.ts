import type { OptionSpec, ParsedArgs } from './options.js';

export interface Command {
  name: string;
  usage: string;
  summary: string;
  /** More help, shown by `govern COMMAND --help`. */
  details?: string;
  options: OptionSpec[];
  /** Returns the exit code. */
  run(args: ParsedArgs): Promise<number>;
}

/** Writes to stdout and waits until it is flushed (large outputs to a pipe). */
export function out(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}

export function warn(text: string): void {
  process.stderr.write(`govern: ${text}\n`);
}
