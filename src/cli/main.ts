// govern's command line: dispatches to a command and turns errors into messages and exit codes.
import { governVersion } from '../config/paths.js';
import { UserError } from '../shared/errors.js';
import { guardChildren } from '../shared/child-guard.js';
import { KILL_GRACE_MS, killAllChildren } from '../shared/process.js';
import { closest } from '../shared/suggest.js';
import { out, printError, type Command } from './command.js';
import { COMMANDS } from './command-index.js';
import { formatOptionHelp, parseCommandLine } from './options.js';

function usage(): string {
  const lines = COMMANDS.map((c) => `  ${c.usage.padEnd(44)} ${c.summary}`);
  return (
    `govern: configuration management for the local host\n\nusage:\n${lines.join('\n')}\n` +
    `  ${'govern help COMMAND'.padEnd(44)} a command's options (also govern COMMAND --help)\n  govern --version\n`
  );
}

export function commandHelp(command: Command): string {
  return `usage: ${command.usage}\n\n${command.summary}\n${command.details ? `\n${command.details}\n` : ''}\noptions:\n${formatOptionHelp(command.options)}\n`;
}

export function main(argv: string[]): void {
  // A reader that goes away (`govern run ... | head`) must not stop the run halfway.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
  guardChildren(KILL_GRACE_MS); // even a SIGKILL of govern takes its runners and commands down
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAllChildren('SIGTERM');
      process.stderr.write(`govern: interrupted by ${signal}\n`);
      process.exit(130);
    });
  }
  dispatch(argv).then(exit, (e) => {
    printError(e);
    exit(1);
  });
}

/**
 * Exits once stdout and stderr are flushed. Waiting for the event loop to drain instead would wait
 * for any timer a library leaves behind after the work is done.
 */
function exit(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

async function dispatch(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(usage());
    return 1;
  }
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    await out(usage());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    await out(`govern ${governVersion()}\n`);
    return 0;
  }
  if (name === 'help') {
    await out(commandHelp(await findCommand(rest[0])));
    return 0;
  }
  const command = await findCommand(name);
  const line = parseCommandLine(rest, command.options, command.name);
  if (line.given.has('help')) {
    await out(commandHelp(command));
    return 0;
  }
  try {
    return await command.run(line);
  } catch (e) {
    const document = await command.errorDocument?.(e, line);
    if (document === undefined && command.failureExit !== undefined) {
      printError(e);
      return command.failureExit;
    }
    if (document === undefined) throw e;
    await out(document);
    printError(e);
    return 1;
  }
}

function findCommand(name: string): Promise<Command> {
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry) return entry.load();
  const meant = COMMANDS.find((c) => c.otherNames?.includes(name))?.name ?? closest(name, COMMANDS.map((c) => c.name));
  throw new UserError(`unknown command "${name}"${meant ? ` (did you mean "${meant}"?)` : ''}; see govern --help`);
}
