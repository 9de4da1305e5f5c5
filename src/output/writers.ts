// govern's own words on stdout and stderr: the output a command prints, and its warnings, notes and
// errors, each line of stderr with its journald priority when stderr is the journal (priority.ts).
import { UserError } from '../shared/errors.js';
import { pulledPaths } from '../shared/pulled-paths.js';
import { maskSecrets } from '../shared/secret-texts.js';
import { terminalLine } from '../shared/terminal-text.js';
import { priorityWriter, type Priority } from './priority.js';

/**
 * Writes to stdout and waits until it is flushed (large outputs to a pipe). A reader that went away
 * (`govern fleet | head`) ends the wait too: no 'drain' comes after EPIPE, but the write's callback
 * does, and a command holding a connection open would otherwise wait for ever.
 */
export function out(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(pulledPaths(maskSecrets(text)), () => resolve())) resolve();
  });
}

/**
 * A value on stdout as it is, byte for byte, into a pipe or a file; at a terminal a newline follows
 * it, so the prompt starts on a line of its own (as `vault kv get -field` does).
 */
export function outValue(value: string): Promise<void> {
  return out(process.stdout.isTTY ? `${value}\n` : value);
}

let stderrWriter: ((text: string, priority: Priority) => void) | undefined;

/** A line on stderr, with its priority when stderr is the journal; control characters escaped. */
function say(text: string, priority: Priority): void {
  stderrWriter ??= priorityWriter(process.stderr, 2, process.env);
  stderrWriter(`govern: ${terminalLine(pulledPaths(text))}\n`, priority);
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
