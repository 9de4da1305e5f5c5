// The shell provider: `/bin/sh -c COMMAND`, for pipes, redirections, variables and globs. The
// shell finds programs in the environment's PATH (set from `path`).
import { runCommand } from '../../shared/process.js';
import type { ExecProvider } from './provider.js';

export const SHELL = '/bin/sh';

export const shellProvider: ExecProvider = {
  argv(command) {
    return [SHELL, '-c', command];
  },
  run([program, ...args], spec) {
    return runCommand(program, args, { env: spec.env, cwd: spec.cwd, timeoutMs: spec.timeoutMs });
  },
};
