// The one way a command's failure becomes a message, for the core and every runner:
// `apt-get install -y vim failed (exit 100): E: Unable to locate package vim`.
import { describeFailure, type RunResult } from './process.js';

/** A quoted output line longer than this is cut. */
const LINE_CHARS = 200;

export interface FailureOptions {
  /** The time limit the command ran under, for "timed out after ...". */
  timeoutMs?: number;
  /** Why it counts as failed, instead of the exit status alone ("exit 3, expected 0"). */
  why?: string;
  /** How many of the last output lines to quote (default 3). */
  lines?: number;
  /** Advice added at the end. */
  hint?: string;
}

/** "WHAT failed (WHY): last | lines | of output; hint". */
export function commandFailure(what: string, result: RunResult, options: FailureOptions = {}): string {
  const why = options.why ?? describeFailure(result, options.timeoutMs);
  const tail = outputTail(result, options.lines ?? 3);
  return `${what} failed (${why})${tail ? `: ${tail}` : ''}${options.hint ? `; ${options.hint}` : ''}`;
}

/** The last non-blank lines of stderr (of stdout when stderr is blank), trimmed and joined by " | ". */
export function outputTail(result: Pick<RunResult, 'stdout' | 'stderr'>, count: number): string {
  const text = result.stderr.trim() !== '' ? result.stderr : result.stdout;
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(-count)
    .map((line) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}...` : line))
    .join(' | ');
}
