// Parsing on two threads (src/state/parse-pool.ts): the worker thread's files give what this
// thread's would, errors included, and the state tree's resources come out in definition order.
import { expect } from 'chai';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseStateFiles, type StateFileText } from '../../src/state/load.js';
import { parseTexts, type ParseAnswer, type ParseStats } from '../../src/state/parse-pool.js';

/** A state file of n resources, with a syntax error at line `broken` when given. */
function stateFile(index: number, n: number, broken?: number): { file: string; text: string } {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`x "f${index}-r${i}" {`, `  value = "${'v'.repeat(i % 7)}"`, `  list = ["a", "b"]`, '}');
  if (broken !== undefined) lines.splice(broken - 1, 0, 'x "unclosed" {');
  return { file: `/states/${String(index).padStart(2, '0')}.hcl`, text: lines.join('\n') + '\n' };
}

describe('parsing state files on two threads', () => {
  const texts = Array.from({ length: 12 }, (_, i) => stateFile(i, 40, i === 9 ? 17 : undefined));

  it('gives the worker some files, and the same outcome for each, syntax errors included', async () => {
    const stats: ParseStats = { inWorker: 0 };
    const alone = await parseTexts(texts, Infinity);
    const pooled = await parseTexts(texts, 0, stats);
    expect(stats.inWorker).to.be.within(1, texts.length - 1);
    expect(pooled).to.deep.equal(alone);
    const errors = pooled.flatMap((o, i) => ('problems' in o ? [{ i, problems: o.problems }] : []));
    expect(errors).to.have.length(1);
    expect(errors[0].i).to.equal(9);
    expect(errors[0].problems[0]).to.include({ file: '/states/09.hcl' });
  });

  it('keeps one thread below the size a worker pays for', async () => {
    const stats: ParseStats = { inWorker: 0 };
    await parseTexts(texts, texts.reduce((n, t) => n + t.text.length, 1), stats);
    expect(stats.inWorker).to.equal(0);
  });

  it('reports the same resources, in definition order, and the same errors with their lines', async () => {
    const asState = (list: { file: string; text: string }[]): StateFileText[] => list.map((t) => ({ file: t.file, source: t.text, rendered: t.text, sourceLines: [] }));
    const good = asState(texts.filter((_, i) => i !== 9));
    const refs = (await parseStateFiles(good, undefined, 0)).map((r) => `${r.ref} ${r.at.file}:${r.at.line}`);
    expect(refs).to.deep.equal((await parseStateFiles(good, undefined, Infinity)).map((r) => `${r.ref} ${r.at.file}:${r.at.line}`));
    expect(refs).to.have.length(11 * 40);
    expect(refs[40]).to.equal('x:f1-r0 /states/01.hcl:1');
    const failure = async (min: number) => parseStateFiles(asState(texts), undefined, min).then(() => 'parsed', (e: Error) => e.message);
    const message = await failure(0);
    expect(message).to.match(/^\/states\/09\.hcl:\d+/);
    expect(message).to.equal(await failure(Infinity));
  });

  it('the bundled worker (dist/bundle, what bin/govern starts) answers a file and its syntax error', async () => {
    const worker = new Worker(path.resolve(__dirname, '..', '..', 'bundle', 'parse-worker.js'));
    try {
      const ask = (id: number, text: { file: string; text: string }) =>
        new Promise<ParseAnswer>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage({ id, ...text });
        });
      expect(await ask(1, texts[0])).to.deep.equal({ id: 1, ...((await parseTexts([texts[0]], Infinity))[0] as object) });
      const broken = await ask(2, texts[9]);
      expect(broken).to.have.property('problems').that.deep.equals(((await parseTexts([texts[9]], Infinity))[0] as { problems: unknown }).problems);
    } finally {
      await worker.terminate();
    }
  });
});
