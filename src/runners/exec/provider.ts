// What an exec provider does: turn a command as written into argv (refusing what it cannot run
// faithfully, before anything runs), and run such an argv. One file per provider; providers.ts lists them.
import type { RunResult } from '../../shared/process.js';

export interface RunSpec {
  /** The command's whole environment; its PATH is the one programs are looked up in. */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** 0: no limit. */
  timeoutMs: number;
  /** Programs put before the argv that change who runs it (exec/identity.ts); the argv's own program is still looked up in env.PATH. */
  prefix?: string[];
}

export interface ExecProvider {
  /** The argv that runs `command`; throws a UserError naming what this provider cannot run. Runs nothing. */
  argv(command: string): string[];
  /** Runs an argv made by `argv`, stdin closed, its process group killed on timeout. */
  run(argv: string[], spec: RunSpec): Promise<RunResult>;
}
