// A govern command: its usage, its option table, and what it does with the resolved options.
import { defaultStateTree } from '../config/paths.js';
import { UserError } from '../shared/errors.js';
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
  /**
   * The exit status when run throws, if not 1 (status: 3, UNKNOWN, as a monitoring plugin answers);
   * a function when it depends on the command line (`govern fleet` is a check, `govern fleet run` is not).
   */
  failureExit?: number | ((line: CommandLine) => number);
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

/** The one operand a command takes (PATH, TEMPLATE). */
export function theOperand(operands: string[], usage: string, name: string): string {
  if (operands.length === 1) return operands[0];
  throw new UserError(operands.length === 0 ? `${name} is missing (usage: ${usage})` : `one ${name} only, not ${operands.length} (usage: ${usage})`);
}

/** The state tree of run and graph: the one PATH given, else the default tree. */
export function treeOperand(operands: string[], usage: string): string {
  return operands.length === 0 ? defaultStateTree() : theOperand(operands, usage, 'PATH');
}
