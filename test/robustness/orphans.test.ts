// No process of a run outlives govern, however govern dies: SIGTERM, SIGINT, or SIGKILL, which
// govern cannot catch. Every process of the run carries a marker in its environment; after the
// kill, /proc is scanned for it until none is left or a few seconds have passed.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN, RUNNERS_DIR, shRunner, TEST_VAR_DIR } from '../support/cli.js';
import { processesWithEnv } from '../support/proc.js';
import { tempDir, writeFile } from '../support/tmp.js';

const MARK = 'GOVERN_TEST_ORPHAN_MARK';

const marked = (token: string): number[] => processesWithEnv(MARK, token);

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
  } catch {
    return '?';
  }
}

async function until(what: string, test: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/**
 * Starts govern with `args`, waits until a `sleep 4242` of the run is running, kills govern with
 * `signal`, and expects every marked process gone within 6 seconds (the runner's grace is 2).
 */
async function killMidRun(args: string[], signal: NodeJS.Signals, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const token = crypto.randomBytes(8).toString('hex');
  const child = spawn(GOVERN, args, { env: { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env, ...env, [MARK]: token }, stdio: 'ignore' });
  const exited = new Promise((res) => child.once('exit', res));
  try {
    await until('the sleep of the run', () => marked(token).some((pid) => /(^|\/)sleep 4242$/.test(commandLine(pid))), 30_000);
    child.kill(signal);
    await exited;
    await until('every process of the run to end', () => marked(token).length === 0, 6000).catch(() => {
      throw new Error(`left behind after ${signal}: ${marked(token).map((pid) => `${pid} ${commandLine(pid)}`).join('; ')}`);
    });
  } finally {
    child.kill('SIGKILL');
    for (const pid of marked(token)) process.kill(pid, 'SIGKILL');
  }
}

describe('no orphan when govern dies', function () {
  this.timeout(120_000);
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGKILL'];

  for (const signal of signals) {
    it(`a sh runner and the sleep it started go with govern (${signal})`, async () => {
      const dir = tempDir();
      shRunner(path.join(dir, 'runners'), 'slow', 'sleep 4242\necho changed=true');
      writeFile(path.join(dir, 'states', 'main.hcl'), 'slow "x" {}\n');
      await killMidRun(['run', path.join(dir, 'states'), '--runners-dir', path.join(dir, 'runners')], signal);
    });

    for (const mode of ['persistent', 'oneshot']) {
      it(`the exec runner and its command go with govern (${signal}, ${mode} runners)`, async () => {
        const dir = tempDir();
        writeFile(path.join(dir, 'states', 'main.hcl'), 'exec "wait" {\n  command = "sleep 4242"\n  timeout = "0"\n}\n');
        await killMidRun(['run', path.join(dir, 'states'), '--runners-dir', RUNNERS_DIR, '--runner-mode', mode], signal);
      });
    }
  }

  it('an executable fact goes with govern (SIGKILL)', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'facts', 'slow'), '#!/bin/sh\nsleep 4242\necho late\n', 0o755);
    await killMidRun(['facts', 'slow'], 'SIGKILL', { GOVERN_FACTS_PATH: path.join(dir, 'facts') });
  });

  it('a runner of the kit stops when govern is gone, even if nothing kills it (persistent: stdin closes)', async () => {
    // The runner alone, as govern starts it: a request in flight, then its stdin closes.
    const token = crypto.randomBytes(8).toString('hex');
    const exec = path.join(RUNNERS_DIR, 'exec');
    const child = spawn(exec, [], { env: { ...process.env, GOVERN_PERSISTENT: '1', [MARK]: token }, stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    try {
      child.stdin.write(JSON.stringify({ argv: ['wait', 'command=sleep 4242', 'timeout=0'], env: {} }) + '\n');
      await until('the sleep', () => marked(token).some((pid) => /(^|\/)sleep 4242$/.test(commandLine(pid))), 30_000);
      child.stdin.end();
      await until('the runner and its command to end', () => marked(token).length === 0, 6000);
    } finally {
      for (const pid of marked(token)) process.kill(pid, 'SIGKILL');
    }
  });
});
