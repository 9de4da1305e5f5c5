// A run stopped by SIGTERM (systemctl stop, a shutdown, TimeoutStartSec) or SIGINT records what it
// applied, with the interruption as its error, in last-run.json and the metrics file; govern status
// then says CRITICAL, and govern exits 143 or 130. With both cores kept busy: on a loaded machine a
// SIGTERM run once went unrecorded (issue 38, item 27).
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { acquireRunLock, RUN_LOCK_NAME } from '../../src/lock/run-lock.js';
import { govern, GOVERN, RUNNERS_DIR } from '../support/cli.js';
import { busyCores, commandLine, processAlive, processesWithEnv, until } from '../support/proc.js';
import { TEST_LOCK_DIR } from '../support/suite-dirs.js';
import { tempDir, writeFile } from '../support/tmp.js';

const ROOT_0644 = 'owner = "root"\n  group = "root"\n  mode = "0644"';

describe('govern run interrupted, cores busy', function () {
  this.timeout(120_000);
  let stopBusy: () => void = () => undefined;
  before(() => (stopBusy = busyCores()));
  after(() => stopBusy());

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`records what it applied and the interruption, and exits ${code} (${signal})`, async () => {
      const dir = tempDir();
      const [first, last, pidFile] = ['first', 'last', 'pid'].map((name) => path.join(dir, name));
      writeFile(
        path.join(dir, 'states', 'main.hcl'),
        `file ${JSON.stringify(first)} {\n  ensure = "present"\n  ${ROOT_0644}\n  contents = "x\\n"\n}\n` +
          `exec "wait" {\n  command = "echo $$ > ${pidFile}; exec sleep 300"\n  provider = "shell"\n  timeout = "0"\n  after = ["file:${first}"]\n}\n` +
          `file ${JSON.stringify(last)} {\n  ensure = "present"\n  ${ROOT_0644}\n  contents = "x\\n"\n  after = ["exec:wait"]\n}\n`,
      );
      const varDir = path.join(dir, 'var');
      const metrics = path.join(dir, 'govern.prom');
      const args = ['run', path.join(dir, 'states'), '--runners-dir', RUNNERS_DIR, '--var-dir', varDir, '--metrics-file', metrics];
      const child = spawn(GOVERN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      // The sleep runs once its pid is written: the first file is applied by then.
      while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8').trim() === '') await new Promise((res) => setTimeout(res, 50));
      child.kill(signal);
      expect(await exited, stderr).to.equal(code);
      expect(stderr).to.contain(`govern: interrupted by ${signal}`);
      expect(processAlive(Number(fs.readFileSync(pidFile, 'utf8'))), 'the command outlived the interrupted run').to.equal(false);

      const report = JSON.parse(fs.readFileSync(path.join(varDir, 'last-run.json'), 'utf8')) as RunReport;
      expect(report.errors).to.deep.equal([{ message: `interrupted by ${signal}` }]);
      expect(report.resources.map((r) => [r.ref, r.status])).to.deep.include.members([
        [`file:${first}`, 'changed'],
        ['exec:wait', 'failed'],
      ]);
      expect(report.resources.filter((r) => r.ref === `file:${last}` && r.status !== 'skipped')).to.deep.equal([]);
      expect(fs.existsSync(last)).to.equal(false);
      const prom = fs.readFileSync(metrics, 'utf8');
      expect(prom).to.match(/^govern_last_run_success 0$/m);
      expect(prom).to.match(/^govern_last_run_errors 1$/m);
      expect(prom).to.match(/^govern_last_run_resources\{status="changed"\} 1$/m);

      const status = await govern(['status', '--var-dir', varDir]);
      expect(status.code).to.equal(2);
      expect(status.stdout).to.match(new RegExp(`^GOVERN CRITICAL - stopped: interrupted by ${signal}; `));
    });
  }
});

const MARK = 'GOVERN_TEST_INTERRUPT_MARK';
const NOTHING_APPLIED = 'nothing was applied, and the record of the last run is unchanged';

/** A tree of one file resource, and where govern records it: nothing of it may appear. */
function oneFileTree(): { states: string; applied: string; varDir: string } {
  const dir = tempDir();
  const applied = path.join(dir, 'applied');
  writeFile(path.join(dir, 'states', 'main.hcl'), `file ${JSON.stringify(applied)} {\n  ensure = "present"\n  ${ROOT_0644}\n  contents = "x\\n"\n}\n`);
  return { states: path.join(dir, 'states'), applied, varDir: path.join(dir, 'var') };
}

describe('govern run interrupted before the run began', function () {
  this.timeout(120_000);

  it('a SIGTERM as the run lock is freed: the run never begins, says so, and is not recorded (a real held lock)', async () => {
    // This test holds the suite's run lock, as a run under way would; govern waits for it. While
    // govern is stopped (SIGSTOP), the lock is freed and govern's flock takes it; the SIGTERM is
    // then handled before govern hears that it has the lock.
    const lock = await acquireRunLock({ timeoutMs: 60_000, startedAt: new Date().toISOString(), onWait: () => undefined });
    const held = fs.readFileSync(path.join(TEST_LOCK_DIR, RUN_LOCK_NAME), 'utf8');
    const token = crypto.randomBytes(8).toString('hex');
    const tree = oneFileTree();
    const args = ['run', tree.states, '--runners-dir', RUNNERS_DIR, '--var-dir', tree.varDir];
    const child = spawn(GOVERN, args, { env: { ...process.env, [MARK]: token }, stdio: ['ignore', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    try {
      const waiting = () => processesWithEnv(MARK, token).filter((pid) => commandLine(pid).startsWith('flock -w'));
      await until('govern to wait in flock', () => waiting().length > 0);
      const [flock] = waiting();
      process.kill(child.pid!, 'SIGSTOP');
      lock.release();
      await until('the flock to take the lock and exit', () => !processAlive(flock));
      process.kill(child.pid!, 'SIGTERM');
      process.kill(child.pid!, 'SIGCONT');
      expect(await exited, stderr).to.equal(143);
    } finally {
      lock.release();
      child.kill('SIGKILL');
    }
    expect(stderr).to.match(new RegExp(`govern: interrupted by SIGTERM while waiting for the run of pid ${process.pid} started at .*: ${NOTHING_APPLIED}\n`));
    expect(stdout).to.equal('');
    expect(fs.existsSync(tree.applied)).to.equal(false);
    expect(fs.existsSync(path.join(tree.varDir, 'last-run.json'))).to.equal(false);
    // It never held the lock as a run: the holder's record is still the one this test wrote.
    expect(fs.readFileSync(path.join(TEST_LOCK_DIR, RUN_LOCK_NAME), 'utf8')).to.equal(held);
  });

  it('a SIGTERM before govern holds the run lock stops the run there, with a line that says so (fake slow flock)', async () => {
    // A flock that waits before it takes the lock, so that the signal surely comes first: the wait
    // is govern's first (flock -n), before it knows whether another run holds the lock.
    const dir = tempDir();
    const asked = path.join(dir, 'flock-asked');
    writeFile(path.join(dir, 'bin', 'flock'), `#!/bin/sh\necho > ${asked}\nsleep 300 &\nwait\nexec /usr/bin/flock "$@"\n`, 0o755);
    const tree = oneFileTree();
    const env = { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}` };
    const child = spawn(GOVERN, ['run', tree.states, '--runners-dir', RUNNERS_DIR, '--var-dir', tree.varDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    try {
      await until('govern to ask flock for the run lock', () => fs.existsSync(asked));
      child.kill('SIGTERM');
      expect(await exited, stderr).to.equal(143);
    } finally {
      child.kill('SIGKILL');
    }
    expect(stderr).to.equal(`govern: interrupted by SIGTERM\ngovern: interrupted by SIGTERM before the run had begun: ${NOTHING_APPLIED}\n`);
    expect(stdout).to.equal('');
    expect(fs.existsSync(tree.applied)).to.equal(false);
    expect(fs.existsSync(path.join(tree.varDir, 'last-run.json'))).to.equal(false);
  });
});

describe('govern run interrupted, its report held up', function () {
  this.timeout(120_000);

  it('is recorded before its report is printed: a reader that takes nothing (a full pipe) does not hold the record back', async () => {
    // stdout is a FIFO this test fills to the brim once the run is under way, and reads only once
    // the record is there. The --json report is larger than what a stream buffers before it makes
    // its writer wait (a file's diff of 40 KiB), and it is the only one printed: a report printed first would wait for ever, and
    // the record with it.
    const dir = tempDir();
    const [first, pidFile, fifo] = ['first', 'pid', 'stdout'].map((name) => path.join(dir, name));
    const contents = Array.from({ length: 640 }, (_, i) => `line ${i} ${'x'.repeat(56)}`).join('\\n');
    writeFile(
      path.join(dir, 'states', 'main.hcl'),
      `file ${JSON.stringify(first)} {\n  ensure = "present"\n  ${ROOT_0644}\n  contents = "${contents}\\n"\n}\n` +
        `exec "wait" {\n  command = "echo $$ > ${pidFile}; exec sleep 300"\n  provider = "shell"\n  timeout = "0"\n  after = ["file:${first}"]\n}\n`,
    );
    writeFile(first, 'before\n', 0o644);
    expect(spawnSync('mkfifo', [fifo]).status).to.equal(0);
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const writer = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    const varDir = path.join(dir, 'var');
    const lastRun = path.join(varDir, 'last-run.json');
    const args = ['run', path.join(dir, 'states'), '--runners-dir', RUNNERS_DIR, '--var-dir', varDir, '--json'];
    const child = spawn(GOVERN, args, { stdio: ['ignore', writer, 'pipe'] });
    fs.closeSync(writer);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    let output = Buffer.alloc(0);
    const drain = () => {
      const chunk = Buffer.alloc(65536);
      for (;;) {
        try {
          const n = fs.readSync(reader, chunk, 0, chunk.length, null);
          if (n === 0) return;
          output = Buffer.concat([output, chunk.subarray(0, n)]);
        } catch {
          return; // EAGAIN: nothing more for now
        }
      }
    };
    let draining: NodeJS.Timeout | undefined;
    try {
      while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8').trim() === '') await new Promise((res) => setTimeout(res, 50));
      drain();
      const filled = fill(fifo);
      child.kill('SIGTERM');
      await until('the interrupted run\'s record', () => fs.existsSync(lastRun), 30_000);
      const recorded = JSON.parse(fs.readFileSync(lastRun, 'utf8')) as RunReport;
      expect(recorded.errors).to.deep.equal([{ message: 'interrupted by SIGTERM' }]);
      output = Buffer.alloc(0);
      draining = setInterval(drain, 20);
      expect(await exited, stderr).to.equal(143);
      drain();
      // One report, the interrupted run's (the fill is spaces, which JSON allows before it).
      expect(filled).to.be.greaterThan(0);
      const printed = JSON.parse(output.toString('utf8')) as RunReport;
      expect(printed.errors).to.deep.equal([{ message: 'interrupted by SIGTERM' }]);
      expect(printed.resources.find((r) => r.ref === `file:${first}`)?.diff?.length).to.be.greaterThan(32 * 1024);
    } finally {
      if (draining) clearInterval(draining);
      child.kill('SIGKILL');
      fs.closeSync(reader);
    }
  });
});

/** Fills the FIFO until not one byte more fits (govern's next write to it waits for a reader); returns the bytes written. */
function fill(fifo: string): number {
  const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  let written = 0;
  try {
    for (const size of [65536, 4096, 1]) {
      const chunk = Buffer.alloc(size, ' ');
      for (;;) {
        try {
          written += fs.writeSync(fd, chunk);
        } catch {
          break; // EAGAIN: full, for a chunk of this size
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}
