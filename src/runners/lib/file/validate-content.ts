// `validate`: a command run on the new content before it replaces the live file (Puppet's
// validate_cmd, Ansible's validate), for every runner that rewrites a file (file, line). The content
// goes to a temporary file beside the target, `%` in the command stands for it; the command runs
// without a shell. When it fails, the resource fails with its output and the live file is untouched.
// It runs in noop mode too, so that a noop never says "Would have changed" for content the real run
// would refuse (docs/file.md "validate").
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { commandFailure } from '../../../shared/command-failure.js';
import type { ProviderContext } from '../../../shared/command-runner.js';
import { UserError } from '../../../shared/errors.js';
import { findProgram, splitCommand } from '../command-line.js';

const TIMEOUT_MS = 300_000;

/** The description of the key, shared by the runners that take it. */
export const VALIDATE_KEY = {
  type: 'string',
  pattern: '(.*\\s)?%(\\s.*)?',
  what: 'a command with % standing alone for the file to check (visudo -c -f %)',
  help: 'a command that checks the new content before it replaces the file: % is a temporary file beside it holding the new content, the command runs without a shell, and a non-zero exit fails the resource and leaves the file as it was; it runs in noop mode too',
} as const;

/** The argv of a validate command, with each `%` argument replaced by the file to check. */
export function validateArgv(command: string, file: string): string[] {
  const argv = splitCommand(command);
  if (!argv.includes('%')) throw new UserError(`validate ${JSON.stringify(command)} has no % argument standing for the file to check`);
  return argv.map((arg) => (arg === '%' ? file : arg));
}

/**
 * Runs the command on `content` in a temporary file beside `target`; a UserError when it fails. In
 * noop mode, a directory an earlier resource would create leaves nothing to write beside: not run.
 */
export async function validateContent(command: string, target: string, content: Buffer, context: ProviderContext, noop = false): Promise<void> {
  if (noop && !fs.existsSync(path.dirname(target))) {
    context.log(`validate: not run: ${path.dirname(target)} does not exist yet`);
    return;
  }
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.govern-validate-${crypto.randomBytes(6).toString('hex')}`);
  const [program, ...args] = validateArgv(command, temporary);
  // Private to root until it is gone: the content may be a secret the live file keeps from others.
  fs.writeFileSync(temporary, content, { flag: 'wx', mode: 0o600 });
  try {
    const result = await context.run(findProgram(program, context.env.PATH), args, { env: context.env, timeoutMs: TIMEOUT_MS });
    const output = [...result.stdout.split('\n'), ...result.stderr.split('\n')].filter((l) => l.trim() !== '');
    for (const line of output) context.log(`validate: ${line}`);
    if (result.code !== 0) throw new UserError(commandFailure(`validate ${command}`, result, { timeoutMs: TIMEOUT_MS, hint: noop ? `the real run would fail here, leaving ${target} as it is` : `${target} left as it was` }));
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
