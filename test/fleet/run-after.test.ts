// The listener's follow-up to a request (src/fleet/run-after.ts), on a run lock record of the test's
// own: a start is asked again only while no run is under way and none begun after the request has
// taken the lock; it stops once one has, and at a start that fails.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureRunAfter, RunFollower } from '../../src/fleet/run-after.js';
import { tempDir, writeFile } from '../support/tmp.js';

const record = (dir: string, pid: number, startedAt: number) => writeFile(path.join(dir, 'run.lock'), `${JSON.stringify({ pid, started_at: new Date(startedAt).toISOString() })}\n`, 0o600);

describe('fleet: a run after the request (govern listen) #once', () => {
  it('asks nothing more once a run begun after the request holds the lock', async () => {
    const dir = tempDir();
    const since = Date.now();
    record(dir, process.pid, since + 5);
    let starts = 0;
    await ensureRunAfter({ sinceMs: since, start: async () => (starts++, undefined), everyMs: 10, stopped: () => false, warn: () => undefined, lockDir: dir });
    expect(starts).to.equal(0);
  });

  it('waits while an older run is under way; once it has ended, asks for the start again until a newer run holds the lock', async () => {
    const dir = tempDir();
    const since = Date.now();
    // A run under way, begun before the request: a real process, ended by the test.
    const older = spawn('sleep', ['300']);
    record(dir, older.pid!, since - 60_000);
    let starts = 0;
    const following = ensureRunAfter({
      sinceMs: since,
      start: async () => {
        // The second start asked is the one that runs (the first was merged into the older run).
        if (++starts === 2) record(dir, process.pid, Date.now());
        return undefined;
      },
      everyMs: 10,
      stopped: () => false,
      warn: () => undefined,
      lockDir: dir,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(starts, 'asked while the older run was under way').to.equal(0);
    older.kill('SIGKILL');
    await new Promise((resolve) => older.once('exit', resolve));
    await following;
    expect(starts).to.equal(2);
  });

  it('requests that come while one is followed join its follow-up: one start at a time, until a run begun after the last holds the lock', async () => {
    const dir = tempDir();
    const starts: number[] = [];
    const follower = new RunFollower({
      start: async () => {
        // The third start asked is the one that runs.
        if (starts.push(Date.now()) === 3) record(dir, process.pid, Date.now());
        return undefined;
      },
      everyMs: 20,
      stopped: () => false,
      warn: () => undefined,
      lockDir: dir,
    });
    const first = Date.now();
    const followed = [follower.after(first), follower.after(first + 1), follower.after(first + 2)];
    await Promise.all(followed);
    expect(starts).to.have.length(3);
    // Each after a wait of its own (20 ms, then 40), not three at once, one for each request.
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1], `start ${i + 1}`).to.be.at.least(15);
  });

  it('stops at a start that fails, with its reason; and when told to stop', async () => {
    const dir = tempDir();
    const warned: string[] = [];
    await ensureRunAfter({ sinceMs: Date.now(), start: async () => 'systemctl failed (exit 5)', everyMs: 10, stopped: () => false, warn: (t) => warned.push(t), lockDir: dir });
    expect(warned).to.deep.equal(['systemctl failed (exit 5)']);
    let starts = 0;
    await ensureRunAfter({ sinceMs: Date.now(), start: async () => (starts++, undefined), everyMs: 10, stopped: () => true, warn: () => undefined, lockDir: dir });
    expect(starts).to.equal(0);
  });
});
