import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { govern, GOVERN } from '../support/cli.js';
import { runnersWith, callRefs } from '../support/recording-runner.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** A facts directory with two `ln -s .` links and one to its parent: loops without end if followed. */
function loopingFacts(): string {
  const dir = tempDir('govern-harden-');
  const facts = path.join(dir, 'facts');
  writeFile(path.join(facts, 'os/name'), 'Linux');
  fs.symlinkSync('.', path.join(facts, 'a'));
  fs.symlinkSync('.', path.join(facts, 'b'));
  fs.symlinkSync('..', path.join(facts, 'os/up'));
  return facts;
}

describe('facts directories: links, loops and signals', () => {
  it('reads a directory reached twice once, and names each link that loops', async () => {
    const facts = loopingFacts();
    const r = await govern(['facts'], { env: { GOVERN_FACTS_PATH: facts }, timeoutMs: 30_000 });
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('os/name\tLinux\n');
    expect(r.stderr.trim().split('\n')).to.deep.equal(
      ['a', 'b', 'os/up'].map((link) => `govern: facts directory ${path.join(facts, link)} is ${facts} again (a symbolic link loop, or a second link to it): not read twice`),
    );
    const through = await govern(['facts', 'a/os/name'], { env: { GOVERN_FACTS_PATH: facts }, timeoutMs: 30_000 });
    expect(through.stderr).to.contain(`fact a/os/name: facts directory ${path.join(facts, 'a')} is ${facts} again`);
  });

  it('runs a state tree that uses no fact, its facts directories looping', async () => {
    const facts = loopingFacts();
    const dir = tempDir('govern-harden-');
    const log = path.join(dir, 'calls.log');
    const runners = runnersWith(path.join(dir, 'runners'), log, ['x']);
    const state = writeFile(path.join(dir, 'a.hcl'), 'x "a" {\n}\n');
    const r = await govern(['run', state, '--runners-dir', runners, '--facts-dir', facts, '--no-cache'], { timeoutMs: 30_000 });
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
    expect(callRefs(log)).to.deep.equal(['x:a']);
  });

  it('stops at SIGTERM while it scans a large facts directory', async () => {
    const facts = loopingFacts();
    fs.symlinkSync('/usr', path.join(facts, 'usr')); // some hundred thousand entries: seconds of scanning
    const dir = tempDir('govern-harden-');
    const runners = runnersWith(path.join(dir, 'runners'), path.join(dir, 'calls.log'), ['x']);
    const state = writeFile(path.join(dir, 'a.hcl'), 'x "{{fact "os/name"}}" {\n}\n');
    const child = spawn(GOVERN, ['graph', state, '--runners-dir', runners, '--facts-dir', facts, '--no-cache'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const signalled = Date.now();
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    expect(Date.now() - signalled).to.be.below(3000);
    expect(code).to.equal(143);
    expect(stderr).to.contain('govern: interrupted by SIGTERM');
  });
});
