// The posix provider (the default): the command is split into argv the way a shell would quote it,
// and the program runs directly, with no shell. Anything only a shell could do (pipes, lists,
// redirections, variables, command substitution, globs, ~) is refused rather than passed on as a
// literal argument the user did not mean.
import { LOG_KEEP_BYTES } from '../../shared/bounded-output.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import { DEFAULT_PATH, findProgram, splitCommand } from '../lib/command-line.js';
import type { ExecProvider, RunSpec } from './provider.js';

export function posixProvider(context: ProviderContext): ExecProvider {
  return {
    argv: splitCommand,
    run([program, ...args], spec) {
      const [command, ...rest] = prefixed(spec, [findProgram(program, spec.env.PATH), ...args]);
      return context.run(command, rest, { env: spec.env, cwd: spec.cwd, timeoutMs: spec.timeoutMs, headAndTail: LOG_KEEP_BYTES });
    },
  };
}

/** The argv with the spec's prefix (setpriv, the umask) in front; the prefix's programs are looked up in the default PATH. */
export function prefixed(spec: RunSpec, argv: string[]): string[] {
  if (!spec.prefix || spec.prefix.length === 0) return argv;
  const [program, ...args] = spec.prefix;
  return [findProgram(program, DEFAULT_PATH), ...args, ...argv];
}
