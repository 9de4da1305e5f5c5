// govern's command line: dispatches to a command and turns errors into messages and exit codes.
import { UserError } from '../shared/errors.js';
import { killAllChildren } from '../shared/process.js';
import type { Command } from './command.js';
import { factsCommand } from './commands/facts.js';
import { graphCommand } from './commands/graph.js';
import { renderCommand } from './commands/render.js';
import { runCommand } from './commands/run.js';
import { versioncmpCommand } from './commands/versioncmp.js';
import { formatOptionHelp, parseArgs } from './options.js';

export const commands: Command[] = [runCommand, factsCommand, renderCommand, graphCommand, versioncmpCommand];

function version(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../../package.json') as { version: string }).version;
}

function usage(): string {
  const lines = commands.map((c) => `  ${c.usage.padEnd(44)} ${c.summary}`);
  return `govern: configuration management for the local host\n\nusage:\n${lines.join('\n')}\n  govern --version\n\nRun "govern COMMAND --help" for a command's options.\n`;
}

function commandHelp(command: Command): string {
  return `usage: ${command.usage}\n\n${command.summary}\n${command.details ? `\n${command.details}\n` : ''}\noptions:\n${formatOptionHelp(command.options)}\n`;
}

export function main(argv: string[]): void {
  // A reader that goes away (`govern run ... | head`) must not stop the run halfway.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAllChildren('SIGTERM');
      process.stderr.write(`govern: interrupted by ${signal}\n`);
      process.exit(130);
    });
  }
  run(argv).then(exit, (e) => {
    if (e instanceof UserError) process.stderr.write(`govern: ${e.message.split('\n').join('\ngovern: ')}\n`);
    else process.stderr.write(`govern: internal error: ${(e as Error)?.stack ?? e}\n`);
    exit(1);
  });
}

/**
 * Exits once stdout and stderr are flushed. Waiting for the event loop to drain instead would wait
 * for timers hcl2json's Go runtime leaves behind, up to seconds after the work is done.
 */
function exit(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 1 : 0;
  }
  if (name === '--version') {
    process.stdout.write(`govern ${version()}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) throw new UserError(`unknown command "${name}"\n${usage().trimEnd()}`);
  const args = parseArgs(rest, command.options);
  if (args.flags.has('help')) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  return command.run(args);
}
