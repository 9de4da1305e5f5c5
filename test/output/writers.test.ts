// govern's stdout writer when the reader goes away: `govern fleet | head` closes the pipe while a
// command still writes, and holds a connection open meanwhile; the command must go on and end.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../support/cli.js';

const WRITERS = path.join(ROOT, 'dist', 'src', 'output', 'writers.js');

describe('stdout writer', () => {
  it('a write into a pipe whose reader went away ends its wait, while something else keeps the process alive #once', async () => {
    // As main.ts does: EPIPE is not an error of govern's. The interval stands for a fleet connection.
    const script = `process.stdout.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
const { out } = require(${JSON.stringify(WRITERS)});
const alive = setInterval(() => undefined, 1000);
(async () => {
  for (let i = 0; i < 64; i++) await out('x'.repeat(1 << 16));
  process.stderr.write('all written\\n');
  clearInterval(alive);
})();`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    // A bound, not a measure: a wait that never ends is killed and the test fails on its signal.
    const bound = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    clearTimeout(bound);
    expect(signal, 'the writer waited for ever').to.equal(null);
    expect(code, stderr).to.equal(0);
    expect(stderr).to.equal('all written\n');
  });
});
