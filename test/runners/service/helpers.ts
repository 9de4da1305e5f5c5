// Calls the real runners/service executable and reads its result lines.
import { parseResult } from '../../../src/shared/protocol.js';
import { runner } from '../../support/cli.js';

export interface ServiceRun {
  code: number | null;
  changed: boolean;
  message?: string;
  stderr: string;
}

export async function runService(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServiceRun> {
  const result = await runner('service', [name, ...args], { env });
  const parsed = parseResult(result.stdout);
  return { code: result.code, changed: parsed.changed, message: parsed.message, stderr: result.stderr };
}

/** A run that must succeed; its stderr is in the failure message. */
export async function applied(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServiceRun> {
  const run = await runService(name, args, env);
  if (run.code !== 0) throw new Error(`runners/service ${name} ${args.join(' ')} failed (exit ${run.code}): ${run.message}\n${run.stderr}`);
  return run;
}
