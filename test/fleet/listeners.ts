// `govern listen` processes for the fleet tests, and `govern fleet run` signed by the tests' operator
// key. Each listener's --run-command starts `govern run` on its host's tree in the background, as
// `systemctl --no-block start` does; the tests end only when the runs their listeners started have.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { govern, GOVERN, TEST_VAR_DIR } from '../support/cli.js';
import { processAlive } from '../support/proc.js';
import { writeFile } from '../support/tmp.js';
import { fleet, stderrOf, type FleetHost } from './support.js';

export interface Listener {
  child: ChildProcess;
  /** Resolves once the listener has written `text` to stderr. */
  said(text: string): Promise<void>;
}

/**
 * `govern listen` for a host, ready once it says it listens. Its run command starts `govern run` on
 * the host's tree in the background and returns, as `systemctl --no-block start` does.
 */
export async function listener(host: FleetHost, url: string, runCommand?: string, extra: string[] = []): Promise<Listener> {
  const t = host.tree;
  const run = [GOVERN, 'run', t.states, '--runners-dir', t.runners, '--facts-dir', t.facts, '--var-dir', host.varDir, '--fleet-url', url];
  // Each run's pid is kept, so that the test ends only when the runs it started have.
  const pids = path.join(t.dir, 'run-pids');
  startedRuns.push(pids);
  const starter = writeFile(path.join(t.dir, 'start-run'), `#!/bin/sh\nexec </dev/null >/dev/null 2>&1\n${run.join(' ')} &\necho $! >> ${pids}\n`, 0o755);
  // The operators' key of these tests, unless the test gives its own.
  const keys = extra.includes('--allowed-keys') ? [] : ['--allowed-keys', await operators()];
  const child = spawn(GOVERN, ['listen', '--fleet-url', url, '--facts-dir', t.facts, '--run-command', runCommand ?? starter, ...keys, ...extra], {
    env: { ...process.env, GOVERN_VAR_DIR: TEST_VAR_DIR },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  listeners.push(child);
  const { said, text } = stderrOf(child);
  await Promise.race([
    said(`listening on govern.run.${host.name} at `),
    new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`govern listen exited (${code}): ${text()}`)))),
  ]);
  return { child, said };
}
const listeners: ChildProcess[] = [];
export const startedRuns: string[] = [];

/** The operator's signing key of these tests (a user nkey seed) and the allowed keys file naming it. */
export let operator: { seed: string; allowed: string } | undefined;
export async function operators(): Promise<string> {
  if (operator === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-fleet-operator-'));
    const seed = path.join(dir, 'operator.nk');
    const key = await govern(['fleet', 'key', seed]);
    operator = { seed, allowed: writeFile(path.join(dir, 'fleet-operators'), `${key.stdout.trim()}\n`) };
  }
  return operator.allowed;
}

/** `govern fleet run ARGS`, signed with the operator's key. */
export async function fleetRun(url: string, args: string[]) {
  await operators();
  return fleet(url, ['run', ...args, ...(args.includes('--sign-key') ? [] : ['--sign-key', operator!.seed])]);
}

/** Waits until the runs the listeners' starters started have ended. */
export async function runsEnded(): Promise<void> {
  for (const file of startedRuns.splice(0)) {
    const pids = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map(Number) : [];
    for (const pid of pids) while (processAlive(pid)) await new Promise((res) => setTimeout(res, 50));
  }
}

/** Stops the listeners, which may still start a run (run-after.ts); then waits for the runs they started. */
export async function stopListeners(): Promise<void> {
  await Promise.all(listeners.splice(0).map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) : undefined)));
  await runsEnded();
}
