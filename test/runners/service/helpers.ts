// Calls the real runners/service executable and reads its result lines.
import { runnerOutcome, type RunnerOutcome } from '../../support/cli.js';

export type ServiceRun = RunnerOutcome;

export function runService(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServiceRun> {
  return runnerOutcome('service', [name, ...args], { env });
}

/** A run that must succeed; its stderr is in the failure message. */
export async function applied(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServiceRun> {
  const run = await runService(name, args, env);
  if (run.code !== 0) throw new Error(`runners/service ${name} ${args.join(' ')} failed (exit ${run.code}): ${run.message}\n${run.stderr}`);
  return run;
}
