import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { readCalls, runnersWith } from '../support/recording-runner.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('the parse cache', () => {
  function setup() {
    const dir = tempDir();
    const log = path.join(dir, 'calls.log');
    const runners = runnersWith(path.join(dir, 'runners'), log, ['pkg']);
    const state = writeFile(path.join(dir, 'a.hcl'), 'pkg "nginx" {\n  state = "installed"\n}\n');
    const cache = path.join(dir, 'cache');
    const run = (...extra: string[]) => govern(['run', state, '--runners-dir', runners, '--cache-dir', cache, ...extra]);
    const entries = () => (fs.existsSync(cache) ? fs.readdirSync(cache).filter((f) => f.startsWith('hcl-')) : []);
    return { dir, log, runners, state, cache, run, entries, args: () => readCalls(log).map((c) => c.args) };
  }

  /** Rewrites every cache entry, to see whether govern reads it. */
  function tamper(cache: string): void {
    for (const f of fs.readdirSync(cache)) {
      const file = path.join(cache, f);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"installed"', '"from-the-cache"'));
    }
  }

  it('keeps a parsed state file, private to its owner, and reads it back on the next run', async () => {
    const t = setup();
    expect((await t.run()).code).to.equal(0);
    expect(t.entries()).to.have.length(1);
    expect(fs.statSync(t.cache).mode & 0o777).to.equal(0o700);
    expect(fs.statSync(path.join(t.cache, t.entries()[0])).mode & 0o777).to.equal(0o600);
    tamper(t.cache);
    await t.run();
    expect(t.args()).to.deep.equal([['state=installed'], ['state=from-the-cache']]);
  });

  it('parses again when the rendered text changed', async () => {
    const t = setup();
    await t.run();
    fs.writeFileSync(t.state, 'pkg "nginx" {\n  state = "removed"\n}\n');
    await t.run();
    expect(t.args()).to.deep.equal([['state=installed'], ['state=removed']]);
    expect(t.entries()).to.have.length(2);
  });

  it('is not trusted when others can write its directory', async () => {
    const t = setup();
    await t.run();
    tamper(t.cache);
    fs.chmodSync(t.cache, 0o777);
    await t.run();
    expect(t.args()[1]).to.deep.equal(['state=installed']);
  });

  it('reaches every entry through the directory it checked, though the directory is swapped for a link meanwhile', async () => {
    const t = setup();
    // Another user who owns the cache's parent could rename the cache directory and put a link in
    // its place between govern's check and its reads and writes. A fact that runs during planning,
    // after the check, does it here.
    const moved = `${t.cache}.moved`;
    const decoy = path.join(t.dir, 'decoy');
    const swap = path.join(t.dir, 'swap');
    const facts = path.join(t.dir, 'facts');
    writeFile(path.join(facts, 'role'), `#!/bin/sh
if [ -e ${swap} ]; then mv ${t.cache} ${moved} && ln -s ${decoy} ${t.cache}; fi
echo web
`, 0o755);
    const states = path.join(t.dir, 'states');
    writeFile(path.join(states, 'a.hcl'), 'pkg "nginx" {\n  state = "installed"\n  role = "{{fact "role"}}"\n}\n');
    const run = () => govern(['run', states, '--runners-dir', t.runners, '--facts-dir', facts, '--cache-dir', t.cache]);
    expect((await run()).code).to.equal(0);
    // The decoy holds the same entry, tampered, and private to root: it would be trusted if read.
    fs.mkdirSync(decoy, { mode: 0o700 });
    for (const f of t.entries()) fs.copyFileSync(path.join(t.cache, f), path.join(decoy, f));
    tamper(decoy);
    writeFile(path.join(states, 'b.hcl'), 'pkg "new" {\n}\n'); // not cached yet: written during the run
    fs.writeFileSync(swap, '');
    const r = await run();
    expect(r.stderr).to.equal('');
    expect(fs.lstatSync(t.cache).isSymbolicLink()).to.equal(true, 'the fact swapped the directory');
    const [first, ...second] = t.args();
    expect(first).to.deep.equal(['state=installed', 'role=web']);
    // The two resources of the second run are independent: with --jobs they may run in either order.
    expect(second).to.have.deep.members([['state=installed', 'role=web'], []]);
    expect(fs.readdirSync(decoy)).to.have.length(1, 'nothing written into the decoy');
    expect(fs.readdirSync(moved).filter((f) => f.startsWith('hcl-'))).to.have.length(2);
  });

  it('is not used with --no-cache, and keeps no file whose numbers JSON cannot carry', async () => {
    const t = setup();
    await t.run('--no-cache');
    expect(t.entries()).to.deep.equal([]);
    fs.writeFileSync(t.state, 'pkg "nginx" {\n  n = 1e400\n}\n');
    for (let i = 0; i < 2; i++) expect((await t.run()).stderr).to.contain('n: a number is out of range');
    expect(t.entries()).to.deep.equal([]);
  });
});
