// No process of a run outlives govern, however govern dies: SIGTERM, SIGINT, or SIGKILL, which
// govern cannot catch. Every process of the run carries a marker in its environment; after the
// kill, /proc is scanned for it until none is left or a few seconds have passed.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { acquireRunLock } from '../../src/lock/run-lock.js';
import { govern, GOVERN, RUNNERS_DIR, shRunner, TEST_VAR_DIR } from '../support/cli.js';
import { busyCores, processesWithEnv } from '../support/proc.js';
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

  it('a runner of the kit stops when govern is gone, even if nothing kills it (its parent changes)', async () => {
    // The runner alone under a parent that dies with SIGKILL, as govern would, with no watcher.
    const token = crypto.randomBytes(8).toString('hex');
    const parent = spawn('/bin/sh', ['-c', '"$0" wait "command=sleep 4242" timeout=0 & wait', path.join(RUNNERS_DIR, 'exec')], {
      env: { ...process.env, [MARK]: token },
      stdio: 'ignore',
      detached: true,
    });
    try {
      await until('the sleep', () => marked(token).some((pid) => /(^|\/)sleep 4242$/.test(commandLine(pid))), 30_000);
      parent.kill('SIGKILL');
      await until('the runner and its command to end', () => marked(token).length === 0, 6000);
    } finally {
      for (const pid of marked(token)) process.kill(pid, 'SIGKILL');
    }
  });
});

describe('no orphan when a runner or a waiting govern is killed', function () {
  this.timeout(120_000);

  it('the command of a runner killed with SIGKILL goes too (the runner\'s own watcher)', async () => {
    const token = crypto.randomBytes(8).toString('hex');
    const exec = spawn(path.join(RUNNERS_DIR, 'exec'), ['wait', 'command=sleep 4242', 'timeout=0'], { env: { ...process.env, [MARK]: token }, stdio: 'ignore' });
    const exited = new Promise((res) => exec.once('exit', res));
    try {
      await until('the sleep', () => marked(token).some((pid) => /(^|\/)sleep 4242$/.test(commandLine(pid))), 30_000);
      exec.kill('SIGKILL');
      await exited;
      await until('the command to end', () => marked(token).every(watcherPart), 2000).catch(() => {
        throw new Error(`left behind: ${marked(token).map((pid) => `${pid} ${commandLine(pid)}`).join('; ')}`);
      });
    } finally {
      for (const pid of marked(token)) process.kill(pid, 'SIGKILL');
    }
  });

  it('a govern waiting for the run lock leaves no flock behind (SIGKILL)', async () => {
    // This test holds the run lock, as a run under way would.
    const lock = await acquireRunLock({ timeoutMs: 60_000, startedAt: new Date().toISOString(), onWait: () => undefined });
    const token = crypto.randomBytes(8).toString('hex');
    const dir = tempDir();
    writeFile(path.join(dir, 'states', 'main.hcl'), '');
    const child = spawn(GOVERN, ['run', path.join(dir, 'states')], { env: { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env, [MARK]: token }, stdio: 'ignore' });
    const exited = new Promise((res) => child.once('exit', res));
    try {
      await until('govern to wait in flock', () => marked(token).some((pid) => commandLine(pid).startsWith('flock -w')), 30_000);
      child.kill('SIGKILL');
      await exited;
      await until('the flock to end', () => marked(token).every(watcherPart), 2000).catch(() => {
        throw new Error(`left behind: ${marked(token).map((pid) => `${pid} ${commandLine(pid)}`).join('; ')}`);
      });
    } finally {
      lock.release();
      child.kill('SIGKILL');
      for (const pid of marked(token)) process.kill(pid, 'SIGKILL');
    }
  });
});

describe('nothing left when govern ends by itself', function () {
  this.timeout(120_000);

  it('the group of a persistent runner stopped for an endless line is gone when govern has exited', async () => {
    // The runner ignores SIGTERM, and so does what it started in its group; a second resource
    // goes to a new process of the runner, which answers.
    const token = crypto.randomBytes(8).toString('hex');
    const dir = tempDir();
    const describes = '[ "${GOVERN_DESCRIBE:-}" = 1 ] && { echo \'{"govern_runner": 1, "persistent": true}\'; exit 0; }\n';
    const serve = `while read -r request; do\n  id=\${request#'{"id":'}; id=\${id%%,*}\n  case "$request" in\n    *'"endless"'*) sleep 4242 & head -c 70000000 /dev/zero | tr '\\0' a ;;\n    *) echo "{\\"id\\":$id,\\"ok\\":true,\\"changed\\":false}" ;;\n  esac\ndone\n`;
    writeFile(path.join(dir, 'runners', 'endless'), `#!/bin/sh\n${describes}trap '' TERM\n${serve}`, 0o755);
    writeFile(path.join(dir, 'a.hcl'), 'endless "endless" {}\nendless "y" {}\n');
    const r = await govern(['run', path.join(dir, 'a.hcl'), '--runners-dir', path.join(dir, 'runners'), '--runner-mode', 'persistent'], { env: { [MARK]: token } });
    const left = marked(token); // govern's watcher included: govern waits for it too
    for (const pid of marked(token)) process.kill(pid, 'SIGKILL');
    expect(r.stdout).to.contain('wrote a line longer than');
    expect(r.stdout).to.match(/1 failed/);
    expect(left.map((pid) => `${pid} ${commandLine(pid)}`)).to.deep.equal([]);
  });
});

/**
 * govern's watcher (shared/child-guard.ts) or its `sleep`: it may stay up to its grace (2 s) after
 * the processes it killed, while their groups hold zombies no one has reaped yet.
 */
function watcherPart(pid: number): boolean {
  const isWatcher = (p: number) => commandLine(p).includes("trap '' INT TERM HUP PIPE");
  return isWatcher(pid) || isWatcher(parentOf(pid));
}

function parentOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

describe('no orphan when govern is killed at any moment, cores busy', function () {
  this.timeout(300_000);
  /** How long after govern's death a runner or command it started may still run, at most; the watcher has 1 s more. */
  const GONE_WITHIN_MS = 2000;
  const MOMENTS = 12;

  it(`leaves nothing running ${GONE_WITHIN_MS / 1000} s after a SIGKILL between 0 and 2 s into a run, runner start included`, async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'states', 'main.hcl'), 'exec "slow" {\n  command = "/bin/sleep 4171"\n  timeout = "0"\n}\n');
    const stopBusy = busyCores();
    const left: string[] = [];
    const tokens: string[] = [];
    const show = (pids: number[]) => pids.map((pid) => `${pid} ${commandLine(pid)}`).join('; ');
    try {
      for (let i = 0; i < MOMENTS; i++) {
        // Spread over 0 to 2 s, each at a random point of its own slice, in both runner modes.
        const moment = Math.round(((i + Math.random()) / MOMENTS) * 2000);
        const mode = i % 2 === 0 ? 'persistent' : 'oneshot';
        const token = crypto.randomBytes(8).toString('hex');
        tokens.push(token);
        const args = ['run', path.join(dir, 'states'), '--runners-dir', RUNNERS_DIR, '--runner-mode', mode];
        const child = spawn(GOVERN, args, { env: { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env, [MARK]: token }, stdio: 'ignore', detached: true });
        const exited = new Promise((res) => child.once('exit', res));
        await new Promise((res) => setTimeout(res, moment));
        child.kill('SIGKILL');
        await exited;
        const killed = Date.now();
        await until('the runners and commands to end', () => marked(token).every(watcherPart), GONE_WITHIN_MS).catch(() => {
          left.push(`killed at ${moment} ms (${mode}): ${show(marked(token).filter((pid) => !watcherPart(pid)))}`);
        });
        if (process.env.GOVERN_TEST_ORPHAN_TIMES) process.stderr.write(`${moment} ms ${mode}: runners and commands gone after ${Date.now() - killed} ms\n`);
      }
      // The watchers, last: the last one had its grace, and a second more.
      await until('the watchers to end', () => tokens.every((token) => marked(token).length === 0), GONE_WITHIN_MS + 1000).catch(() => {
        left.push(`still there: ${show(tokens.flatMap(marked))}`);
      });
    } finally {
      stopBusy();
      for (const pid of tokens.flatMap(marked)) process.kill(pid, 'SIGKILL');
    }
    expect(left).to.deep.equal([]);
  });
});
