import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { govern, ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const script = (body: string) => `#!/bin/sh\n${body}\n`;

/** `govern facts` with exactly these facts directories (GOVERN_FACTS_PATH is the whole search path). */
const factsIn = (dirs: string[], args: string[] = []) => govern(['facts', ...args], { env: { GOVERN_FACTS_PATH: dirs.join(':') } });

describe('govern facts #once', () => {
  it('names facts by their path, reads plain files, runs executables, and trims whitespace', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'os/name'), '  My Awesome OS \n\n');
    writeFile(path.join(dir, 'os/kernel/version'), script('echo "  5.11.2-arch1-1  "'), 0o755);
    writeFile(path.join(dir, 'a'), 'first');
    const r = await factsIn([dir]);
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('a\tfirst\nos/kernel/version\t5.11.2-arch1-1\nos/name\tMy Awesome OS\n');
  });

  it('lets the first facts directory override the others, fact by fact', async () => {
    const user = tempDir();
    const shipped = tempDir();
    writeFile(path.join(shipped, 'os/name'), 'Linux');
    writeFile(path.join(shipped, 'os/arch'), 'x86_64');
    writeFile(path.join(user, 'os/name'), 'My Awesome OS');
    expect((await factsIn([user, shipped])).stdout).to.equal('os/arch\tx86_64\nos/name\tMy Awesome OS\n');
    // --facts-dir adds a directory in front of the search path.
    const r = await govern(['facts', '--facts-dir', user], { env: { GOVERN_FACTS_PATH: shipped } });
    expect(r.stdout).to.equal('os/arch\tx86_64\nos/name\tMy Awesome OS\n');
  });

  it('uses GOVERN_FACTS_PATH (colon-separated, first has priority) as the whole search path', async () => {
    const a = tempDir();
    const b = tempDir();
    writeFile(path.join(a, 'x'), 'from a');
    writeFile(path.join(b, 'x'), 'from b');
    writeFile(path.join(b, 'y'), 'only b');
    const r = await govern(['facts'], { env: { GOVERN_FACTS_PATH: `${a}:${b}` } });
    expect(r.stdout).to.equal('x\tfrom a\ny\tonly b\n');
  });

  it('skips a file with no read bits, even as root, and it hides the same fact in lower directories', async () => {
    expect(process.getuid?.()).to.equal(0, 'this test is meant to run as root, as CI does');
    const user = tempDir();
    const shipped = tempDir();
    writeFile(path.join(user, 'secret'), 'hidden', 0o000);
    writeFile(path.join(user, 'script'), script('echo ran'), 0o311); // executable but not readable: disabled too
    writeFile(path.join(shipped, 'secret'), 'shipped value');
    writeFile(path.join(shipped, 'visible'), 'yes');
    const r = await factsIn([user, shipped]);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('visible\tyes\n');
  });

  it('reads a script with no execute bits as text', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'notrun'), script('echo executed'), 0o644);
    const r = await factsIn([dir], ['notrun']);
    expect(r.stdout).to.equal('notrun\t#!/bin/sh\\necho executed\n');
  });

  it('reports a failing executable with its name and reason, prints the rest, and exits non-zero', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'broken'), script('echo "no such device" >&2; exit 3'), 0o755);
    writeFile(path.join(dir, 'good'), 'fine');
    const r = await factsIn([dir]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('good\tfine\n');
    expect(r.stderr).to.contain('fact broken: exit 3: no such device');
  });

  it('kills a hanging executable fact (and what it started) at the timeout', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, '..', `${path.basename(dir)}.pid`);
    writeFile(path.join(dir, 'hangs'), script(`sleep 300 & echo $! > ${pidFile}; wait`), 0o755);
    writeFile(path.join(dir, 'good'), 'fine');
    const started = Date.now();
    const r = await factsIn([dir], ['--fact-timeout', '500ms']);
    expect(Date.now() - started).to.be.below(20_000);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('good\tfine\n');
    expect(r.stderr).to.contain('fact hangs: timed out after 500ms');
    const { processAlive } = await import('../support/proc.js');
    const child = Number(fs.readFileSync(pidFile, 'utf8'));
    fs.rmSync(pidFile);
    expect(processAlive(child), 'the fact\'s child is still running').to.equal(false);
  });

  it('refuses a value over 1 MiB, from an executable or a file', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'big-exec'), script('head -c 2000000 /dev/zero | tr "\\0" x'), 0o755);
    writeFile(path.join(dir, 'big-file'), 'y'.repeat(1024 * 1024 + 1));
    writeFile(path.join(dir, 'just-fits'), 'z'.repeat(1024 * 1024));
    const r = await factsIn([dir]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/fact big-exec: output is over the 1 MiB limit/);
    expect(r.stderr).to.match(/fact big-file: file is over the 1 MiB limit/);
    expect(r.stdout).to.equal(`just-fits\t${'z'.repeat(1024 * 1024)}\n`);
  });

  it('runs executable facts one at a time', async () => {
    const dir = tempDir();
    const log = path.join(dir, '..', `${path.basename(dir)}.log`);
    for (const name of ['a', 'b', 'c']) writeFile(path.join(dir, name), script(`echo start >> ${log}; sleep 0.2; echo end >> ${log}; echo ${name}`), 0o755);
    const r = await factsIn([dir]);
    const events = fs.readFileSync(log, 'utf8').trim().split('\n');
    fs.rmSync(log);
    expect(r.code).to.equal(0);
    expect(events).to.deep.equal(['start', 'end', 'start', 'end', 'start', 'end']);
  });

  it('reports a name that is a file in one directory and a directory in another', async () => {
    const user = tempDir();
    const shipped = tempDir();
    writeFile(path.join(user, 'os'), 'OpenBSD');
    writeFile(path.join(shipped, 'os/name'), 'Linux');
    writeFile(path.join(shipped, 'other'), 'ok');
    const r = await factsIn([user, shipped]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('other\tok\n');
    expect(r.stderr).to.contain(`fact os: ${path.join(user, 'os')} is a file but ${path.join(shipped, 'os')} is a directory`);
    expect(r.stderr).to.contain('fact os/name: fact os:');
  });

  it('keeps each fact on one line, escaping newlines, tabs and backslashes; --json keeps values as they are', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'multi'), 'line one\nline\ttwo \\ end\n');
    const text = await factsIn([dir]);
    expect(text.stdout).to.equal('multi\tline one\\nline\\ttwo \\\\ end\n');
    const json = await factsIn([dir], ['--json']);
    expect(JSON.parse(json.stdout)).to.deep.equal({ multi: 'line one\nline\ttwo \\ end' });
  });

  it('prints just the named facts, and an unknown name is an error', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'a'), '1');
    writeFile(path.join(dir, 'b'), '2');
    writeFile(path.join(dir, 'c'), script('echo 3'), 0o755);
    const some = await factsIn([dir], ['c', 'a']);
    expect(some.code).to.equal(0);
    expect(some.stdout).to.equal('a\t1\nc\t3\n');
    const unknown = await factsIn([dir], ['a', 'nope']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stdout).to.equal('a\t1\n');
    expect(unknown.stderr).to.contain('fact nope: no such fact');
  });

  it('ships working facts for this host', async () => {
    const r = await factsIn([path.join(ROOT, 'facts.d')], ['--json']);
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
    const facts = JSON.parse(r.stdout) as Record<string, string>;
    const osRelease = fs.readFileSync('/etc/os-release', 'utf8');
    const field = (name: string) => new RegExp(`^${name}="?([^"\\n]*)"?$`, 'm').exec(osRelease)![1];
    expect(facts['os/name']).to.equal(os.type());
    expect(facts['os/kernel/version']).to.equal(os.release());
    expect(facts['os/arch']).to.equal(os.machine());
    expect(facts['os/distribution']).to.equal(field('NAME'));
    expect(facts['os/release']).to.equal(field('VERSION_ID'));
    expect(facts['os/family']).to.equal('debian');
    expect(facts.hostname).to.equal(os.hostname().split('.')[0]);
    expect(facts.fqdn).to.match(/^[A-Za-z0-9.-]+$/);
    expect(Number(facts['cpu/count'])).to.equal(os.cpus().length);
    expect(Number(facts['memory/total'])).to.equal(Math.round(os.totalmem() / 1024) * 1024);
    const addresses = Object.values(os.networkInterfaces()).flat().map((a) => a!.address);
    expect(addresses).to.include(facts['network/primary/ip']);
  });
});
