// Calls a real built-in runner in either runner mode: one process per call (one-shot), or one request
// to a process started with GOVERN_PERSISTENT=1, as govern would send it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import type { PersistentResponse } from '../../src/shared/persistent.js';
import { RUNNERS_DIR, runnerOutcome } from './cli.js';

export type RunnerMode = 'oneshot' | 'persistent';
export const MODES: RunnerMode[] = ['oneshot', 'persistent'];

export interface Outcome {
  ok: boolean;
  changed: boolean;
  message?: string;
  diff?: string;
  /** Log lines (stderr in one-shot mode). */
  log: string;
}

/**
 * `runners/RUNNER NAME key=value...` with GOVERN_* variables from env, in the given mode, started
 * under `via` when given (`['unshare', '-u']`).
 */
export async function callRunner(runner: string, mode: RunnerMode, name: string, args: string[], env: Record<string, string> = {}, via: string[] = []): Promise<Outcome> {
  if (mode === 'oneshot') {
    const r = await runnerOutcome(runner, [name, ...args], { env, via });
    return { ok: r.code === 0, changed: r.changed, message: r.message, diff: r.diff, log: r.stderr };
  }
  const argv = [...via, path.join(RUNNERS_DIR, runner)];
  const child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, GOVERN_PERSISTENT: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  const answer = new Promise<PersistentResponse>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as PersistentResponse));
    child.once('exit', (code) => reject(new Error(`runners/${runner} exited ${code} without an answer`)));
  });
  child.stdin.write(JSON.stringify({ id: 1, argv: [name, ...args], env }) + '\n');
  // stdin stays open until the answer: a runner whose stdin closes with a request unanswered takes
  // govern as gone and stops, its commands with it.
  const a = await answer.finally(() => child.stdin.end());
  if (a.id !== 1) throw new Error(`answer to request ${a.id}, not 1`);
  return { ok: a.ok, changed: a.changed, message: a.message, diff: a.diff, log: a.log.join('\n') };
}
