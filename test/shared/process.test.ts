import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { describeFailure, runCommand, startOnlyUnless } from '../../src/shared/process.js';
import { processAlive as alive } from '../support/proc.js';
import { tempDir, writeFile } from '../support/tmp.js';


describe('runCommand #once', () => {
  it('runs argv without a shell and captures both streams', async () => {
    const r = await runCommand('/bin/echo', ['a;b', '$HOME', '`id`']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('a;b $HOME `id`\n');
  });

  it('closes stdin, so a command that reads it does not hang', async () => {
    const r = await runCommand('/bin/cat', [], { timeoutMs: 5000 });
    expect(r.timedOut).to.equal(false);
    expect(r.code).to.equal(0);
  });

  it('kills the whole process group on timeout, children included', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'child.pid');
    const r = await runCommand('/bin/sh', ['-c', `sleep 60 & echo $! > ${pidFile}; wait`], { timeoutMs: 300 });
    expect(r.timedOut).to.equal(true);
    expect(describeFailure(r, 300)).to.match(/timed out after 300ms/);
    const childPid = Number(fs.readFileSync(pidFile, 'utf8'));
    await new Promise((res) => setTimeout(res, 100));
    expect(alive(childPid), 'the child sleep was left behind').to.equal(false);
  });

  it('reports a timeout only once nothing of the group runs, a child that ignores SIGTERM included', async function () {
    this.timeout(20_000);
    const dir = tempDir();
    const pidFile = path.join(dir, 'child.pid');
    const r = await runCommand('/bin/sh', ['-c', `trap '' TERM; sleep 60 & echo $! > ${pidFile}; wait`], { timeoutMs: 300 });
    expect(r.timedOut).to.equal(true);
    expect(alive(Number(fs.readFileSync(pidFile, 'utf8'))), 'the child sleep was left behind').to.equal(false);
  });

  it('starts nothing while something stands against it, and says why', async () => {
    const marker = path.join(tempDir(), 'ran');
    startOnlyUnless(() => 'govern is gone');
    try {
      const r = await runCommand('/usr/bin/touch', [marker]);
      expect(describeFailure(r)).to.equal('/usr/bin/touch was not started: govern is gone');
      expect(fs.existsSync(marker)).to.equal(false);
    } finally {
      startOnlyUnless(() => undefined);
    }
    expect((await runCommand('/usr/bin/touch', [marker])).code).to.equal(0);
  });

  it('does not wait for a background process that keeps the output open', async () => {
    const r = await runCommand('/bin/sh', ['-c', 'sleep 30 & echo started'], { timeoutMs: 10_000 });
    expect(r.timedOut).to.equal(false);
    expect(r.stdout).to.equal('started\n');
    expect(r.durationMs).to.be.below(5000);
  });

  it('reports a command that cannot be started in words, not as spawn ENOENT', async () => {
    const r = await runCommand('/nonexistent/cmd', []);
    expect(r.code).to.equal(null);
    expect(describeFailure(r)).to.equal('program not found: /nonexistent/cmd');
    const dir = tempDir();
    const notExecutable = writeFile(path.join(dir, 'tool'), '#!/bin/sh\n', 0o644);
    expect(describeFailure(await runCommand(notExecutable, []))).to.equal(`permission denied: ${notExecutable}`);
  });

  it('kills a command whose output passes the limit', async () => {
    const r = await runCommand('/usr/bin/yes', [], { maxOutputBytes: 1024 * 1024, timeoutMs: 10_000 });
    expect(r.overflowed).to.equal(true);
    expect(r.timedOut).to.equal(false);
  });
});
