// The runit provider against the real runit of this machine (Debian's runit: runsvdir, runsv, sv),
// driven through runners/service: a service directory in /etc/sv (a name unique to this test run,
// removed after), and a runsvdir the test starts on a scratch directory given as SVDIR, as runit's
// sv reads it. Nothing is linked into this host's own /etc/service.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { runCommand } from '../../../src/shared/process.js';
import { govern } from '../../support/cli.js';
import { processAlive } from '../../support/proc.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { applied, runService } from './helpers.js';
import { hostExclusive } from '../../support/host-lock.js';

const NAME = `govern-port-runit-${process.pid}`;
const DEFINITION = path.join('/etc/sv', NAME);

describe('service runner, runit provider (real runsvdir, runsv and sv)', function () {
  hostExclusive();
  this.timeout(120_000);
  let svdir: string;
  let runsvdir: ChildProcess | undefined;
  const env = () => ({ SVDIR: svdir });
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => applied(NAME, [...args, 'provider=runit'], { ...env(), ...extra });

  /** The pid runsv reports, or undefined when the service is down or not supervised. */
  async function pid(): Promise<number | undefined> {
    const r = await runCommand('sv', ['status', path.join(svdir, NAME)]);
    const m = /^run: [^:]+: \(pid ([0-9]+)\)/.exec(r.stdout);
    return m ? Number(m[1]) : undefined;
  }
  const linked = () => fs.existsSync(path.join(svdir, NAME));
  const down = () => fs.existsSync(path.join(DEFINITION, 'down'));

  before(async function () {
    if (process.getuid?.() !== 0 || (await runCommand('sh', ['-c', 'command -v runsvdir && command -v sv'])).code !== 0) this.skip();
    svdir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-runit-svdir-')); // lives across the tests, unlike tempDir()
    writeFile(path.join(DEFINITION, 'run'), '#!/bin/sh\nexec sleep 100000\n', 0o755);
    runsvdir = spawn('runsvdir', [svdir], { stdio: 'ignore' });
  });

  after(async () => {
    // HUP: runsvdir sends TERM to every runsv and exits; each runsv stops its service first.
    if (svdir && fs.existsSync(path.join(svdir, NAME))) await runCommand('sv', ['force-stop', path.join(svdir, NAME)]);
    if (runsvdir?.pid && runsvdir.exitCode === null) {
      const exited = new Promise((resolve) => runsvdir!.once('exit', resolve));
      process.kill(runsvdir.pid, 'SIGHUP');
      await exited;
    }
    // A runsv told to stop may still be closing its supervise files.
    fs.rmSync(DEFINITION, { recursive: true, force: true, maxRetries: 50, retryDelay: 100 });
    if (svdir) fs.rmSync(svdir, { recursive: true, force: true });
  });

  it('an unknown service: a clear error naming the run script #once', async () => {
    const r = await runService('govern-port-no-such', ['ensure=running', 'provider=runit'], env());
    expect(r.code).to.equal(1);
    expect(r.message).to.include('service govern-port-no-such not found: no executable /etc/sv/govern-port-no-such/run');
  });

  it('stopped and not linked: no change #once', async () => {
    expect(await run(['ensure=stopped'])).to.deep.include({ changed: false, message: 'stopped' });
    expect(linked()).to.equal(false);
  });

  it('ensure running: links it with a down file (enable left alone: not started at boot), runsv picks it up, sv start #once', async () => {
    const r = await run(['ensure=running']);
    expect(r).to.deep.include({ changed: true, message: 'started' });
    expect(linked()).to.equal(true);
    expect(down()).to.equal(true);
    expect(processAlive((await pid())!)).to.equal(true);
    expect(await run(['ensure=running', 'enable=false'])).to.deep.include({ changed: false, message: 'running, disabled' });
  });

  it('enable true while running: removes the down file, same process #once', async () => {
    const before = await pid();
    expect(await run(['ensure=running', 'enable=true'])).to.deep.include({ changed: true, message: 'enabled' });
    expect(down()).to.equal(false);
    expect(await pid()).to.equal(before);
  });

  it('enable false while running: a down file, still running and supervised #once', async () => {
    const before = await pid();
    expect(await run(['ensure=running', 'enable=false'])).to.deep.include({ changed: true, message: 'disabled' });
    expect(down()).to.equal(true);
    expect(await pid()).to.equal(before);
  });

  it('ensure stopped, enable true: sv stop, then enabled; it stays stopped #once', async () => {
    const before = (await pid())!;
    expect(await run(['ensure=stopped', 'enable=true'])).to.deep.include({ changed: true, message: 'stopped; enabled' });
    expect(await pid()).to.equal(undefined);
    expect(processAlive(before)).to.equal(false);
    expect(down()).to.equal(false);
    expect(await run(['ensure=stopped', 'enable=true'])).to.deep.include({ changed: false, message: 'stopped, enabled' });
  });

  it('notification mode: refresh starts a stopped service (ensure running), restart makes a new process #once', async () => {
    expect(await run(['ensure=running'], { GOVERN_SIGNAL: 'refresh' })).to.deep.include({ changed: true, message: 'started' });
    const first = (await pid())!;
    expect(await run(['ensure=running'], { GOVERN_SIGNAL: 'restart' })).to.deep.include({ changed: true, message: 'restarted' });
    const second = (await pid())!;
    expect(second).to.not.equal(first);
    expect(processAlive(second)).to.equal(true);
    expect(await run(['ensure=stopped'], { GOVERN_SIGNAL: 'refresh' })).to.deep.include({ changed: false, message: 'refresh ignored: ensure is stopped' });
  });

  it('through govern run (persistent runner): stopped, then zero changes', async () => {
    expect((await run(['ensure=running'])).code).to.equal(0); // where the tests by hand leave it (#once: not run in the modes pass)
    const dir = tempDir('govern-runit-run-');
    writeFile(path.join(dir, 'services.hcl'), `service "${NAME}" {\n  ensure   = "stopped"\n  provider = "runit"\n}\n`);
    const once = async () => {
      const r = await govern(['run', dir, '--json'], { env: env() });
      expect(r.code, r.stderr).to.equal(0);
      return JSON.parse(r.stdout) as RunReport;
    };
    expect((await once()).resources[0]).to.include({ status: 'changed', message: 'stopped' });
    expect(await pid()).to.equal(undefined);
    expect((await once()).summary).to.include({ changed: 0, unchanged: 1 });
  });
});
