// The ssh invocation that asks one host for its facts:
//   SSH... -o BatchMode=yes -o ConnectTimeout=N -- HOST 'REMOTE-COMMAND NAME...'
// ssh joins the remote command into one line for the remote user's shell, so every word of it is
// quoted for that shell here; the user's own ssh options come first, and OpenSSH keeps the first
// value it sees for an option, so theirs win over govern's defaults.
import type * as ShellQuote from 'shell-quote';
import { UserError } from '../../shared/errors.js';
import { shellWord } from '../../shared/shell-display.js';

export const DEFAULT_SSH = ['ssh'];
export const DEFAULT_REMOTE_COMMAND = ['govern', 'facts', '--json'];

export interface SshSettings {
  /** The ssh program and its options, as argv. */
  ssh: string[];
  /** The remote command's words; the fact names are appended. */
  remoteCommand: string[];
  connectTimeoutMs: number;
}

/**
 * Splits a command as a POSIX shell would split words (quotes and backslashes), but runs nothing
 * through a shell: operators, globs, comments and variables are refused rather than half-honoured.
 * `what` names the setting in the message ("--ssh", "GOVERN_SSH").
 */
export function splitCommandLine(text: string, what: string): string[] {
  const variables: string[] = [];
  let entries: unknown[];
  try {
    // Loaded here, where a command line is split: `govern --help` and a run without --ssh never are.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parse } = require('shell-quote') as typeof ShellQuote;
    entries = parse(text, (name: string) => {
      if (name !== '') variables.push(name);
      return undefined;
    });
  } catch (e) {
    throw new UserError(`${what}: ${(e as Error).message}`);
  }
  if (variables.length > 0) {
    throw new UserError(`${what}: "$${variables[0]}" would not be expanded: write the value out (or quote a literal $ with '')`);
  }
  const words: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') {
      words.push(entry);
      continue;
    }
    const token = entry as { op?: string; pattern?: string; comment?: string };
    const shown = token.op === 'glob' ? token.pattern : token.op ?? `#${token.comment}`;
    throw new UserError(`${what}: "${shown}" is shell syntax, and this is one command without a shell: quote it if it is meant literally`);
  }
  if (words.length === 0) throw new UserError(`${what} is empty`);
  return words;
}

/** The line the remote shell runs: each word quoted for it, fact names last. */
export function remoteCommandLine(remoteCommand: string[], factNames: string[]): string {
  return [...remoteCommand, ...factNames].map(shellWord).join(' ');
}

/** The full argv for one host; host and fact names must have been checked (names.ts). */
export function sshArgv(settings: SshSettings, host: string, factNames: string[]): string[] {
  const connectSeconds = Math.max(1, Math.ceil(settings.connectTimeoutMs / 1000));
  return [
    ...settings.ssh,
    '-o',
    'BatchMode=yes',
    '-o',
    `ConnectTimeout=${connectSeconds}`,
    '--',
    host,
    remoteCommandLine(settings.remoteCommand, factNames),
  ];
}
