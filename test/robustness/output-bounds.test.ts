// A runner or command that prints a gigabyte: govern keeps the head and the tail of it, says how
// much it dropped, and its peak memory stays where a quiet run leaves it (measured by GNU time).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { HeadAndTail } from '../../src/shared/bounded-output.js';
import { runCommand } from '../../src/shared/process.js';
import { GOVERN, RUNNERS_DIR, shRunner, TEST_VAR_DIR } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const GIB = 1024 * 1024 * 1024;
/** Far above what govern needs (about 60 MiB), far below what keeping a gigabyte takes. */
const PEAK_BOUND_KIB = 200 * 1024;

/** `govern run` under GNU time: the report and the largest resident set of govern and its children. */
async function measuredRun(states: string, runners: string[], mode: string): Promise<{ report: RunReport; peakKiB: number; stderr: string }> {
  const timeFile = path.join(tempDir(), 'time');
  const args = ['-f', '%M', '-o', timeFile, GOVERN, 'run', states, '--json', '-v', ...runners.flatMap((r) => ['--runners-dir', r]), '--runner-mode', mode];
  const r = await runCommand('/usr/bin/time', args, { env: { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env }, timeoutMs: 300_000 });
  const peakKiB = Number(fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop());
  return { report: JSON.parse(r.stdout) as RunReport, peakKiB, stderr: r.stderr };
}

describe('output that never ends', () => {
  it('HeadAndTail keeps both ends, whole lines at the tail, and counts what it dropped #once', () => {
    const kept = new HeadAndTail(16);
    for (let i = 0; i < 1000; i++) kept.push(Buffer.from(`line ${i}\n`));
    const { text, omitted } = kept.result();
    const total = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join('').length;
    // The last 16 bytes are "ne 998\nline 999\n": the cut line is dropped with the middle.
    expect(omitted).to.equal(total - 16 - 'line 999\n'.length);
    expect(text).to.equal(`line 0\nline 1\nli\n[${omitted} bytes omitted]\nline 999\n`);
    const small = new HeadAndTail(8);
    small.push(Buffer.from('abc\n'));
    small.push(Buffer.from('defghijk\n'));
    expect(small.result()).to.deep.equal({ text: 'abc\ndefghijk\n', omitted: 0 });
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`a runner printing 1 GiB completes, keeps head and tail, with bounded memory (${mode} runners)`, async function () {
      this.timeout(300_000);
      const dir = tempDir();
      const runners = path.join(dir, 'runners');
      shRunner(runners, 'loud', `echo "first line"\nyes | head -c ${GIB}\necho\necho changed=true\necho message=done`);
      const states = path.join(dir, 'states');
      writeFile(path.join(states, 'main.hcl'), 'loud "x" {}\n');
      const { report, peakKiB, stderr } = await measuredRun(states, [runners], mode);
      const r = report.resources[0];
      expect(r, stderr).to.include({ status: 'changed', message: 'done' });
      expect(r.log[0]).to.equal('first line');
      expect(r.log.some((l) => /^\[\d+ bytes omitted\]$/.test(l))).to.equal(true);
      expect(r.log.length).to.be.below(70_000); // 64 KiB of "y" lines at each end
      expect(peakKiB, `peak RSS ${peakKiB} KiB`).to.be.below(PEAK_BOUND_KIB);
    });

    it(`an exec command printing 1 GiB with logoutput completes with bounded memory (${mode} runners)`, async function () {
      this.timeout(300_000);
      const dir = tempDir();
      const states = path.join(dir, 'states');
      writeFile(path.join(states, 'main.hcl'), `exec "loud" {\n  provider  = "shell"\n  command   = "yes | head -c ${GIB}; echo last"\n  logoutput = true\n}\n`);
      const { report, peakKiB, stderr } = await measuredRun(states, [RUNNERS_DIR], mode);
      const r = report.resources[0];
      expect(r.status, stderr).to.equal('changed');
      // The runner cuts the command's output; in one-shot mode govern cuts the runner's log as well.
      expect(r.log.some((l) => /^stdout: \[\d+ bytes omitted\]$/.test(l) || (mode === 'oneshot' && /^\[\d+ bytes omitted\]$/.test(l)))).to.equal(true);
      expect(r.log).to.include('stdout: last');
      expect(peakKiB, `peak RSS ${peakKiB} KiB`).to.be.below(PEAK_BOUND_KIB);
    });
  }
});
