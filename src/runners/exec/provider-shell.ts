// The shell provider: `/bin/sh -c COMMAND`, for pipes, redirections, variables and globs. The
// shell finds programs in the environment's PATH (set from `path`).
import { LOG_KEEP_BYTES } from '../../shared/bounded-output.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import type { ExecProvider } from './provider.js';
import { prefixed } from './provider-posix.js';

export const SHELL = '/bin/sh';

export function shellProvider(context: ProviderContext): ExecProvider {
  return {
    argv: (command) => [SHELL, '-c', command],
    run: (argv, spec) => {
      const [program, ...args] = prefixed(spec, argv);
      return context.run(program, args, { env: spec.env, cwd: spec.cwd, timeoutMs: spec.timeoutMs, headAndTail: LOG_KEEP_BYTES });
    },
  };
}
