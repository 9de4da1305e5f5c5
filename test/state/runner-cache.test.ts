// The cache planning keeps between runs (src/state/runner-cache.ts): private to its owner, trusted
// only then, reached through the directory it checked. Its entries are runners' descriptions and
// the runners a tree used, and state files as planned (their tests: parse-cache.test.ts); never the
// entries of the HCL parse cache of old (`hcl-`).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { DescriptionCache } from '../../src/describe/cache.js';
import { describeRunner } from '../../src/describe/describe-runner.js';
import { openRunnerCache } from '../../src/state/runner-cache.js';
import { govern, shRunner } from '../support/cli.js';
import { readCalls, runnersWith } from '../support/recording-runner.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** A runner that counts how often it is asked for its description. */
function countingRunner(dir: string, name: string) {
  const count = path.join(dir, `${name}.asked`);
  const runner = shRunner(dir, name, `echo asked >> ${count}\n[ "\${GOVERN_DESCRIBE:-}" = 1 ] && { echo '{"govern_runner": 1}'; exit 0; }\necho "message=$1"`);
  const asked = () => (fs.existsSync(count) ? fs.readFileSync(count, 'utf8').split('\n').length - 1 : 0);
  return { runner, asked };
}

const ask = (file: string) => describeRunner(file, process.env);

describe('the runner cache', () => {
  it('keeps no state file, and is private to its owner', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'calls.log');
    const runners = runnersWith(path.join(dir, 'runners'), log, ['pkg']);
    const state = writeFile(path.join(dir, 'a.hcl'), 'pkg "nginx" {\n  state = "installed"\n}\n');
    const cache = path.join(dir, 'cache');
    for (let i = 0; i < 2; i++) expect((await govern(['run', state, '--runners-dir', runners, '--cache-dir', cache])).code).to.equal(0);
    expect(readCalls(log).map((c) => c.args)).to.deep.equal([['state=installed'], ['state=installed']]);
    const entries = fs.readdirSync(cache);
    expect(entries).not.to.be.empty;
    expect(entries.filter((f) => f.startsWith('hcl-'))).to.deep.equal([]);
    expect(fs.statSync(cache).mode & 0o777).to.equal(0o700);
    for (const f of entries) expect(fs.statSync(path.join(cache, f)).mode & 0o777, f).to.equal(0o600);
  });

  it('is not trusted when others can write its directory #once', async () => {
    const dir = tempDir();
    const cache = path.join(dir, 'cache');
    const { runner, asked } = countingRunner(dir, 'counted');
    await new DescriptionCache(openRunnerCache(cache)).answer(runner, ask);
    await new DescriptionCache(openRunnerCache(cache)).answer(runner, ask);
    expect(asked()).to.equal(1);
    fs.chmodSync(cache, 0o777);
    await new DescriptionCache(openRunnerCache(cache)).answer(runner, ask);
    expect(asked()).to.equal(2);
  });

  it('reaches every entry through the directory it checked, though the directory is swapped for a link meanwhile #once', async () => {
    // Another user who owns the cache's parent could rename the cache directory and put a link in
    // its place between govern's check and its reads and writes.
    const dir = tempDir();
    const cache = path.join(dir, 'cache');
    const moved = `${cache}.moved`;
    const decoy = path.join(dir, 'decoy');
    const first = countingRunner(dir, 'first');
    const second = countingRunner(dir, 'second');
    await new DescriptionCache(openRunnerCache(cache)).answer(first.runner, ask);
    const opened = new DescriptionCache(openRunnerCache(cache));
    // An empty decoy, private to the same user: the first runner would be asked again if it were read.
    fs.mkdirSync(decoy, { mode: 0o700 });
    fs.renameSync(cache, moved);
    fs.symlinkSync(decoy, cache);
    await opened.answer(first.runner, ask); // read from the directory checked, now moved
    await opened.answer(second.runner, ask); // written there too
    expect(first.asked()).to.equal(1);
    expect(fs.readdirSync(decoy)).to.deep.equal([], 'nothing written into the decoy');
    expect(fs.readdirSync(moved)).to.have.length(2);
  });
});
