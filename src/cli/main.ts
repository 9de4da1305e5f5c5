// govern's command line: dispatches to a command and turns errors into messages and exit codes.
import { setTimeout as sleep } from 'node:timers/promises';
import { governVersion } from '../config/paths.js';
import { UserError } from '../shared/errors.js';
import { dismissWatcher, guardChildren } from '../shared/child-guard.js';
import { interrupt, interruptedBy, interruptExitCode, type Interruption } from '../shared/interrupt.js';
import { childrenRunning, KILL_GRACE_MS, killAllChildren, startOnlyUnless } from '../shared/process.js';
import { closest } from '../shared/suggest.js';
import { type Command } from './command.js';
import { out, printError } from '../output/writers.js';
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
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void interrupted(signal));
  startOnlyUnless(() => (interruptedBy() !== undefined ? `govern was interrupted by ${interruptedBy()}` : undefined));
  dispatch(argv).then(exit, (e) => {
    if (interruptedBy() === undefined) printError(e); // else a consequence of the interruption, said already
    exit(1);
  });
}

/**
 * SIGINT or SIGTERM: what runs is told to stop (a runner then stops its commands), the run records
 * itself, and govern exits once what it started is gone, SIGKILL for what is left after the grace.
 * A second signal of the same kind meets the default action and ends govern at once; the other
 * kind ends it at once too, with the first one's exit status.
 */
async function interrupted(signal: Interruption): Promise<void> {
  const earlier = interruptedBy();
  if (earlier !== undefined) {
    // The other signal while the first is handled: the run is recorded once; now stop waiting.
    killAllChildren('SIGKILL');
    process.exit(interruptExitCode(earlier));
  }
  const asked = Date.now();
  killAllChildren('SIGTERM');
  process.stderr.write(`govern: interrupted by ${signal}\n`);
  await interrupt(signal);
  while (childrenRunning() > 0 && Date.now() - asked < KILL_GRACE_MS) await sleep(20);
  killAllChildren('SIGKILL');
  await dismissWatcher(KILL_GRACE_MS + 1000);
  const code = interruptExitCode(signal);
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

/**
 * Exits once stdout and stderr are flushed and the watcher has left (an interrupted run exits when
 * its handler is done). Waiting for the event loop to drain instead would wait
 * for timers hcl2json's Go runtime leaves behind, up to seconds after the work is done.
 */
function exit(code: number): void {
  if (interruptedBy() !== undefined) return;
  process.exitCode = code;
  void dismissWatcher(KILL_GRACE_MS + 1000).then(() => process.stdout.write('', () => process.stderr.write('', () => process.exit(code))));
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
    const code = typeof command.failureExit === 'function' ? command.failureExit(line) : command.failureExit;
    if (document === undefined && code === undefined) throw e;
    if (document !== undefined) await out(document);
    printError(e);
    return code ?? 1;
  }
}

function findCommand(name: string): Promise<Command> {
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry) return entry.load();
  const meant = COMMANDS.find((c) => c.otherNames?.includes(name))?.name ?? closest(name, COMMANDS.map((c) => c.name));
  throw new UserError(`unknown command "${name}"${meant ? ` (did you mean "${meant}"?)` : ''}; see govern --help`);
}
