// A run stopped by SIGTERM (systemctl stop, a shutdown, TimeoutStartSec) or SIGINT records what it
// applied, with the interruption as its error, in last-run.json and the metrics file; govern status
// then says CRITICAL, and govern exits 143 or 130. With both cores kept busy: on a loaded machine a
// SIGTERM run once went unrecorded (issue 38, item 27).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, GOVERN, RUNNERS_DIR } from '../support/cli.js';
import { busyCores, processAlive } from '../support/proc.js';
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
