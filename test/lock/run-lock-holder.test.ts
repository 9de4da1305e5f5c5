// What a run that must wait says about the run holding the lock: read from the lock file, where the
// holder writes its pid right after taking the lock, and where a run that ended left its own.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireRunLock } from '../../src/lock/run-lock.js';
import { tempDir } from '../support/tmp.js';

describe('the run lock names the run it waits for #once', function () {
  this.timeout(30_000);
  let holder: ChildProcess | undefined;

  afterEach(() => {
    holder?.kill('SIGKILL');
    holder = undefined;
  });

  /** Another process takes the lock (flock(1) around a sleep) and writes nothing into the file. */
  async function heldByAnother(file: string): Promise<number> {
    holder = spawn('flock', [file, 'sleep', '20'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (spawnSync('flock', ['-n', file, 'true']).status === 0) {
      if (Date.now() > deadline) throw new Error('the other process never took the lock');
      await sleep(20);
    }
    return holder.pid!;
  }

  async function refusal(dir: string): Promise<string> {
    const outcome = await acquireRunLock({ dir, timeoutMs: 0, startedAt: new Date().toISOString(), onWait: () => undefined }).then(
      (lock) => {
        lock.release();
        return 'taken';
      },
      (e: Error) => e.message,
    );
    return outcome;
  }

  it('names the holder from its record', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'run.lock');
    fs.writeFileSync(file, '', { mode: 0o600 });
    const pid = await heldByAnother(file);
    fs.writeFileSync(file, `${JSON.stringify({ pid, started_at: '2026-11-23T10:00:00.000Z' })}\n`);
    expect(await refusal(dir)).to.equal(`the run of pid ${pid} started at 2026-11-23T10:00:00.000Z is under way; not waiting (--lock-timeout 0)`);
  });

  it('does not name a run that has ended, whose record the new holder has not replaced yet', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'run.lock');
    const ended = spawnSync('true').pid;
    fs.writeFileSync(file, `${JSON.stringify({ pid: ended, started_at: '2026-11-23T09:00:00.000Z' })}\n`, { mode: 0o600 });
    await heldByAnother(file);
    expect(await refusal(dir)).to.equal('another govern run (it has not written its pid yet) is under way; not waiting (--lock-timeout 0)');
  });

  it('refuses a lock file that is not a regular file (a FIFO) by name, and a link in its place', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'run.lock');
    expect(spawnSync('mkfifo', ['-m', '0600', file]).status).to.equal(0);
    expect(await refusal(dir)).to.equal(`the lock file ${file} is a FIFO, not a regular file: remove it, and govern creates it again`);
    fs.rmSync(file);
    fs.symlinkSync('/dev/null', file);
    expect(await refusal(dir)).to.match(/^cannot open the lock file .*run\.lock: ELOOP/);
  });
});
