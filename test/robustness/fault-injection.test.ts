// A run killed with SIGKILL at spread-out moments, then run again: after every kill, each managed
// file is its old content with its old attributes or its new content with its new attributes, and
// no process of the killed run is left; the rerun reports every change that remained (with the
// right --detailed-exitcodes) and leaves no new temporary file; a third run changes nothing.
// GOVERN_FAULT_ROUNDS=N runs longer (default 4 rounds, each in the other runner mode).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, GOVERN, RUNNERS_DIR, TEST_VAR_DIR } from '../support/cli.js';
import { processesWithEnv } from '../support/proc.js';
import { tempDir, writeFile } from '../support/tmp.js';

const ROUNDS = Number(process.env.GOVERN_FAULT_ROUNDS ?? 4);
const FILES = 200;
const BIG_EVERY = 40; // every 40th file is 2 MiB, copied from a source file
const EXECS = 10;
const MARK = 'GOVERN_TEST_FAULT_MARK';

const oldContent = (i: number) => `old ${i}\n`;
const newContent = (i: number) => `new ${i}\n`;
const isBig = (i: number) => i % BIG_EVERY === 0;

const markedProcesses = (token: string): number[] => processesWithEnv(MARK, token);

function setup() {
  const dir = tempDir();
  const managed = path.join(dir, 'managed');
  const markers = path.join(dir, 'markers');
  fs.mkdirSync(markers);
  const bigOld = Buffer.alloc(2 * 1024 * 1024, 'o');
  const bigNew = writeFile(path.join(dir, 'big-new'), 'n'.repeat(2 * 1024 * 1024));
  const blocks: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const file = writeFile(path.join(managed, `f${i}`), '', 0o600);
    fs.writeFileSync(file, isBig(i) ? bigOld : oldContent(i));
    const content = isBig(i) ? `source = "${bigNew}"` : `contents = ${JSON.stringify(newContent(i))}`;
    blocks.push(`file "${file}" {\n  ensure = "present"\n  ${content}\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
  }
  for (let i = 0; i < EXECS; i++) {
    const marker = path.join(markers, `m${i}`);
    blocks.push(`exec "step ${i}" {\n  command = "/bin/sh -c 'sleep 0.1; touch ${marker}'"\n  creates = "${marker}"\n}\n`);
  }
  const states = path.join(dir, 'states');
  writeFile(path.join(states, 'main.hcl'), blocks.join('\n'));
  return { managed, markers, states, bigNew: fs.readFileSync(bigNew) };
}

/** Files not yet in their new state; throws if one is in neither its old nor its new state. */
function unconverged(t: ReturnType<typeof setup>): number {
  let left = 0;
  for (let i = 0; i < FILES; i++) {
    const file = path.join(t.managed, `f${i}`);
    const st = fs.statSync(file);
    const content = fs.readFileSync(file);
    const isNew = isBig(i) ? content.equals(t.bigNew) : content.toString() === newContent(i);
    const isOld = isBig(i) ? content.length === 2 * 1024 * 1024 && content.every((b) => b === 0x6f) : content.toString() === oldContent(i);
    const mode = st.mode & 0o7777;
    if (isNew && mode === 0o644) continue;
    if (isOld && mode === 0o600) left++;
    else throw new Error(`${file} is neither old nor new: ${content.length} bytes, mode ${mode.toString(8)}`);
  }
  return left;
}

const temporaries = (dir: string) => fs.readdirSync(dir).filter((name) => !/^f\d+$/.test(name));

describe('fault injection: govern killed with SIGKILL mid-run, then run again', function () {
  this.timeout(600_000);

  for (let round = 0; round < ROUNDS; round++) {
    const mode = round % 2 === 0 ? 'persistent' : 'oneshot';
    const delayMs = 150 + Math.round((round * 1500) / Math.max(1, ROUNDS - 1));
    it(`killed ${delayMs} ms into the run (${mode} runners): files old or new, nothing left running, the rerun converges`, async () => {
      const t = setup();
      const args = ['run', t.states, '--runners-dir', RUNNERS_DIR, '--runner-mode', mode, '--jobs', '2'];
      const token = crypto.randomBytes(8).toString('hex');
      const child = spawn(GOVERN, args, { env: { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env, [MARK]: token }, stdio: 'ignore' });
      const exited = new Promise((res) => child.once('exit', res));
      await new Promise((res) => setTimeout(res, delayMs));
      child.kill('SIGKILL');
      await exited;
      const end = Date.now() + 6000;
      while (markedProcesses(token).length > 0 && Date.now() < end) await new Promise((res) => setTimeout(res, 100));
      expect(markedProcesses(token), 'processes of the killed run still alive').to.deep.equal([]);

      const filesLeft = unconverged(t);
      const execsLeft = EXECS - fs.readdirSync(t.markers).length;
      const leftByKill = temporaries(t.managed);

      const rerun = await govern([...args, '--json', '--detailed-exitcodes']);
      const report = JSON.parse(rerun.stdout) as RunReport;
      const changes = filesLeft + execsLeft;
      expect(rerun.code, rerun.stderr).to.equal(changes > 0 ? 2 : 0);
      expect(report.summary.changed).to.equal(changes);
      expect(report.summary.failed).to.equal(0);
      expect(unconverged(t)).to.equal(0);
      expect(fs.readdirSync(t.markers)).to.have.length(EXECS);
      expect(temporaries(t.managed).filter((name) => !leftByKill.includes(name)), 'temporary files left by a complete run').to.deep.equal([]);

      const third = await govern([...args, '--detailed-exitcodes']);
      expect(third.code, third.stdout + third.stderr).to.equal(0);
    });
  }
});
