// One govern run at a time: a slow runner records when each run's work starts and ends (and which
// govern ran it), and two runs started together must never overlap; --lock-timeout bounds the wait.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { govern, GOVERN, shRunner } from '../support/cli.js';
import { busyCores } from '../support/proc.js';
import { tempDir, writeFile } from '../support/tmp.js';

interface Span {
  /** The govern process that ran the runner. */
  governPid: number;
  runnerPid: number;
  start: number;
  end?: number;
}

/**
 * A state tree whose one resource sleeps `seconds` (not in noop mode), logging start and end with
 * nanosecond times; with seconds = 'held', it holds the lock until `release()` is called, however
 * slowly a loaded machine starts the runs that must find it held.
 */
function slowTree(seconds: number | 'held') {
  const dir = tempDir('govern-fleet-lock-');
  const log = path.join(dir, 'spans.log');
  const released = path.join(dir, 'released');
  const runners = path.join(dir, 'runners');
  const wait = seconds === 'held' ? `while [ ! -e ${released} ]; do sleep 0.05; done` : `sleep ${seconds}`;
  shRunner(
    runners,
    'slow',
    `[ -z "\${GOVERN_NOOP:-}" ] || exit 0\necho "start $PPID $$ $(date +%s%N)" >> ${log}\n${wait}\necho "end $PPID $$ $(date +%s%N)" >> ${log}\necho changed=true`,
  );
  const release = () => fs.writeFileSync(released, '');
  const states = path.join(dir, 'states');
  writeFile(path.join(states, 'a.hcl'), 'slow "nap" {}\n');
  const varDir = path.join(dir, 'var');
  const run = (extra: string[] = [], env: NodeJS.ProcessEnv = {}) => govern(['run', states, '--runners-dir', runners, '--var-dir', varDir, ...extra], { env });
  const spans = (): Span[] => {
    const byRunner = new Map<number, Span>();
    const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
    for (const line of text.split('\n').filter((l) => l !== '')) {
      const [what, ppid, pid, ns] = line.split(' ');
      const span = byRunner.get(Number(pid)) ?? { governPid: Number(ppid), runnerPid: Number(pid), start: 0 };
      if (what === 'start') span.start = Number(BigInt(ns) / 1000n);
      else span.end = Number(BigInt(ns) / 1000n);
      byRunner.set(Number(pid), span);
    }
    return [...byRunner.values()];
  };
  /** Resolves once the first run's runner is at work: the lock is held. */
  const started = async () => {
    const deadline = Date.now() + 60_000;
    while (spans().length === 0) {
      if (Date.now() > deadline) throw new Error('the slow runner never started');
      await sleep(20);
    }
    return spans()[0];
  };
  return { dir, run, spans, started, varDir, release };
}

describe('the run lock (one govern run at a time)', function () {
  this.timeout(120_000);

  it('two runs started together never overlap; the second says once what it waits for', async () => {
    const t = slowTree(1);
    const [a, b] = await Promise.all([t.run(), t.run()]);
    expect(a.code, a.stderr).to.equal(0);
    expect(b.code, b.stderr).to.equal(0);
    const spans = t.spans().sort((x, y) => x.start - y.start);
    expect(spans).to.have.length(2);
    expect(spans[0].end, 'the first run ended before the second started').to.be.at.most(spans[1].start);
    const waited = [a, b].find((r) => r.stderr.includes('waiting for'))!;
    expect(waited, 'one of the runs waited').to.not.equal(undefined);
    const lines = waited.stderr.split('\n').filter((l) => l.includes('waiting for'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(new RegExp(`^govern: waiting for the run of pid ${spans[0].governPid} started at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`));
  });

  it('--lock-timeout 0 fails at once, exit 1, naming the pid of the run under way; --noop too', async () => {
    const t = slowTree('held');
    const first = t.run();
    const holder = await t.started();
    try {
      for (const extra of [[], ['--noop']]) {
        const r = await t.run(['--lock-timeout', '0', ...extra]);
        expect(r.code, extra.join(' ')).to.equal(1);
        expect(r.stderr).to.match(new RegExp(`the run of pid ${holder.governPid} started at .* is under way; not waiting \\(--lock-timeout 0\\)`));
        expect(r.stdout).to.equal('');
      }
    } finally {
      t.release();
    }
    expect((await first).code).to.equal(0);
    expect(t.spans(), 'only the first run applied anything').to.have.length(1);
  });

  it('--lock-timeout DURATION gives up after waiting that long, naming the pid', async () => {
    const t = slowTree(4);
    const first = t.run();
    const holder = await t.started();
    const r = await t.run(['--lock-timeout', '500ms']);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`govern: waiting for the run of pid ${holder.governPid}`);
    expect(r.stderr).to.match(new RegExp(`gave up after 500ms waiting for the run of pid ${holder.governPid} started at `));
    expect((await first).code).to.equal(0);
    expect(t.spans()).to.have.length(1);
  });

  it('SIGTERM while a run waits for the lock, cores busy: exit 143 and a line naming the run it waited for; nothing applied, nothing recorded', async () => {
    const stopBusy = busyCores();
    const t = slowTree('held');
    try {
      await sigtermWhileWaiting(t);
    } finally {
      t.release();
      stopBusy();
    }
  });

  async function sigtermWhileWaiting(t: ReturnType<typeof slowTree>): Promise<void> {
    const first = t.run();
    const holder = await t.started();
    const waiting = spawn(GOVERN, ['run', path.join(t.dir, 'states'), '--runners-dir', path.join(t.dir, 'runners'), '--var-dir', path.join(t.dir, 'var-second')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => waiting.on('exit', (code) => resolve(code)));
    // Signalled once it says it waits: the line is written when the lock is found held.
    await new Promise<void>((resolve) =>
      waiting.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('waiting for')) resolve();
      }),
    );
    waiting.kill('SIGTERM');
    const code = await exited;
    t.release();
    expect(code, stderr).to.equal(143);
    expect(stderr).to.include(`govern: interrupted by SIGTERM while waiting for the run of pid ${holder.governPid}`);
    expect(stderr).to.include('nothing was applied, and the record of the last run is unchanged');
    expect(fs.existsSync(path.join(t.dir, 'var-second', 'last-run.json'))).to.equal(false);
    expect((await first).code).to.equal(0);
    expect(t.spans()).to.have.length(1);
  }

  it('a run killed while holding the lock does not block the next one', async () => {
    const t = slowTree(30);
    const first = t.run();
    const holder = await t.started();
    process.kill(holder.governPid, 'SIGKILL');
    await first;
    process.kill(holder.runnerPid, 'SIGKILL'); // the orphaned runner, which holds no lock
    const r = await t.run(['--lock-timeout', '0', '--noop']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.not.include('waiting');
  });

  it('GOVERN_LOCK_DIR moves the lock: a run on another lock directory does not wait for the run under way', async () => {
    const t = slowTree(3);
    const first = t.run();
    const holder = await t.started();
    const elsewhere = path.join(tempDir('govern-lock-dir-'), 'locks');
    const r = await t.run(['--lock-timeout', '0', '--noop'], { GOVERN_LOCK_DIR: elsewhere });
    expect(r.code, r.stderr).to.equal(0);
    expect(fs.statSync(elsewhere).mode & 0o777, 'created 0700').to.equal(0o700);
    expect(JSON.parse(fs.readFileSync(path.join(elsewhere, 'run.lock'), 'utf8')).pid).to.not.equal(holder.governPid);
    expect((await first).code).to.equal(0);
  });

  it('GOVERN_LOCK_DIR is held to the same checks: refused when others can write it, or when relative; nothing runs', async () => {
    const t = slowTree(0);
    const open = tempDir('govern-lock-open-');
    fs.chmodSync(open, 0o1777);
    const r = await t.run([], { GOVERN_LOCK_DIR: open });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`refusing the lock directory ${open}: it must be a directory owned by this user that no one else can write`);
    const relative = await t.run([], { GOVERN_LOCK_DIR: 'locks' });
    expect(relative.code).to.equal(1);
    expect(relative.stderr).to.include('GOVERN_LOCK_DIR must be an absolute path, not "locks"');
    expect(t.spans(), 'nothing applied').to.deep.equal([]);
  });
});
