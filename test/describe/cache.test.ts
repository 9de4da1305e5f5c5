// Descriptions kept between runs: asked once while the runner file and its sources are unchanged.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { DescriptionCache } from '../../src/describe/cache.js';
import { describeRunner } from '../../src/describe/describe-runner.js';
import { noCache, openRunnerCache } from '../../src/state/runner-cache.js';
import { shRunner } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

function countingRunner(dir: string, document: string | undefined) {
  const count = path.join(dir, 'asked');
  const answer = document === undefined ? '' : `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && { echo '${document}'; exit 0; }\n`;
  const runner = shRunner(dir, 'counted', `echo asked >> ${count}\n${answer}echo "message=$1"`);
  const asked = () => (fs.existsSync(count) ? fs.readFileSync(count, 'utf8').split('\n').length - 1 : 0);
  return { runner, asked };
}

describe('the description cache #once', () => {
  const ask = (file: string) => describeRunner(file, process.env);

  it('asks a runner once, and again when its file changes', async () => {
    const dir = tempDir();
    const cache = new DescriptionCache(openRunnerCache(path.join(dir, 'cache')));
    const { runner, asked } = countingRunner(dir, '{"govern_runner": 1, "signals": ["refresh"]}');
    expect((await cache.answer(runner, ask)).kind).to.equal('described');
    expect((await cache.answer(runner, ask)).kind).to.equal('described');
    expect(asked()).to.equal(1);
    fs.appendFileSync(runner, '# changed\n');
    await cache.answer(runner, ask);
    expect(asked()).to.equal(2);
  });

  it('asks again when a file the description names as its source changes', async () => {
    const dir = tempDir();
    const source = writeFile(path.join(dir, 'program.py'), 'print(1)\n');
    const cache = new DescriptionCache(openRunnerCache(path.join(dir, 'cache')));
    const { runner, asked } = countingRunner(dir, `{"govern_runner": 1, "sources": ["${source}"]}`);
    await cache.answer(runner, ask);
    await cache.answer(runner, ask);
    expect(asked()).to.equal(1);
    fs.writeFileSync(source, 'print(22)\n');
    await cache.answer(runner, ask);
    expect(asked()).to.equal(2);
  });

  it('keeps the answer of a runner that does not describe itself too, so it is not run every time', async () => {
    const dir = tempDir();
    const cache = new DescriptionCache(openRunnerCache(path.join(dir, 'cache')));
    const { runner, asked } = countingRunner(dir, undefined);
    expect((await cache.answer(runner, ask)).kind).to.equal('undescribed');
    expect((await cache.answer(runner, ask)).kind).to.equal('undescribed');
    expect(asked()).to.equal(1);
  });

  it('keeps no invalid description: the runner is asked again, so a fix in a module it loads is seen', async () => {
    const dir = tempDir();
    const cache = new DescriptionCache(openRunnerCache(path.join(dir, 'cache')));
    const { runner, asked } = countingRunner(dir, '{"govern_runner": 1, "keys": {"after": {"type": "string"}}}');
    expect((await cache.answer(runner, ask)).kind).to.equal('invalid');
    expect((await cache.answer(runner, ask)).kind).to.equal('invalid');
    expect(asked()).to.equal(2);
  });

  it('keeps nothing without a cache (--no-cache)', async () => {
    const dir = tempDir();
    const { runner, asked } = countingRunner(dir, '{"govern_runner": 1}');
    const none = new DescriptionCache(noCache);
    await none.answer(runner, ask);
    await none.answer(runner, ask);
    expect(asked()).to.equal(2);
  });
});
