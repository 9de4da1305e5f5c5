// A govern command: its usage, its option table, and what it does with the resolved options.
import { maskSecrets } from '../shared/secret-texts.js';
import { defaultStateTree } from '../config/paths.js';
import { priorityWriter, type Priority } from '../journal/priority.js';
import { UserError } from '../shared/errors.js';
import { terminalLine } from '../shared/terminal-text.js';
import { resolveOptions, type CommandLine, type OptionSpec, type Options } from './options.js';

export interface Command {
  name: string;
  /** `govern run [OPTIONS] PATH` */
  usage: string;
  summary: string;
  /** More help, shown by `govern COMMAND --help`. */
  details?: string;
  /** What other tools call this command (`apply` for run): suggested, never accepted. */
  otherNames?: readonly string[];
  options: readonly OptionSpec[];
  /** Resolves the options and runs; returns the exit code. */
  run(line: CommandLine): Promise<number>;
  /** The exit status when run throws, if not 1 (status: 3, UNKNOWN, as a monitoring plugin answers). */
  failureExit?: number;
  /** Called when run throws: the document to print on stdout instead (run --json), or undefined. */
  errorDocument?(error: unknown, line: CommandLine): Promise<string | undefined>;
}

export interface CommandSpec<T extends readonly OptionSpec[]> extends Omit<Command, 'run' | 'options'> {
  options: T;
  /** `line` tells what was given on the command line, when that matters beyond the value. */
  run(options: Options<T>, operands: string[], line: CommandLine): Promise<number>;
}

export function defineCommand<const T extends readonly OptionSpec[]>(spec: CommandSpec<T>): Command {
  return { ...spec, run: (line) => spec.run(resolveOptions(spec.options, line, process.env), line.operands, line) };
}

/** Writes to stdout and waits until it is flushed (large outputs to a pipe). */
export function out(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(maskSecrets(text))) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}

let stderrWriter: ((text: string, priority: Priority) => void) | undefined;

/** A line on stderr, with its priority when stderr is the journal; control characters escaped. */
function say(text: string, priority: Priority): void {
  stderrWriter ??= priorityWriter(process.stderr, 2, process.env);
  stderrWriter(`govern: ${terminalLine(text)}\n`, priority);
}

export function warn(text: string): void {
  say(text, 'warning');
}

/** Something worth knowing that is not wrong (a run waiting for another). */
export function note(text: string): void {
  say(text, 'notice');
}

/** An error on stderr: a user's error as its message (each problem a line), anything else with its stack. */
export function printError(e: unknown): void {
  if (e instanceof UserError) for (const line of e.message.split('\n')) say(line, 'err');
  else say(`internal error: ${(e as Error)?.stack ?? e}`, 'err');
}

/** The one operand a command takes (PATH, TEMPLATE). */
export function theOperand(operands: string[], usage: string, name: string): string {
  if (operands.length === 1) return operands[0];
  throw new UserError(operands.length === 0 ? `${name} is missing (usage: ${usage})` : `one ${name} only, not ${operands.length} (usage: ${usage})`);
}

/** The state tree of run and graph: the one PATH given, else the default tree. */
export function treeOperand(operands: string[], usage: string): string {
  return operands.length === 0 ? defaultStateTree() : theOperand(operands, usage, 'PATH');
}
