// How `govern listen` comes back to its server: the schedule of its attempts (full jitter over a
// window doubling from 10 s to 5 minutes), and a real listener after a real nats-server restart on the
// same port, answering again once it has reconnected. bench/fleet/reconnects.ts measures 10,000 of them.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { Backoff, backoffWindow, FIRST_WINDOW_MS, MAX_WINDOW_MS } from '../../src/fleet/backoff.js';
import { govern, GOVERN } from '../support/cli.js';
import { startNats, stopAllNats } from '../support/nats.js';
import { writeFile } from '../support/tmp.js';
import { stderrOf } from './support.js';

describe('govern listen: reconnecting', function () {
  afterEach(stopAllNats);

  it('the schedule: the first connect at once, then random waits in windows doubling from 10 s to 5 minutes; a connection starts it over #once', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(backoffWindow)).to.deep.equal([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    const top = new Backoff(() => 0.999999);
    const waits = Array.from({ length: 8 }, () => top.next());
    expect(waits[0]).to.equal(0);
    expect(waits.slice(1).map((w) => Math.round(w / 1000))).to.deep.equal([10, 20, 40, 80, 160, 300, 300]);
    top.connected();
    // After a disconnect the first attempt is spread over the first window too: no instant flood.
    expect(Math.round(top.next() / 1000)).to.equal(FIRST_WINDOW_MS / 1000);
    expect(Math.round(top.next() / 1000)).to.equal(20);
    const low = new Backoff(() => 0);
    expect([low.next(), low.next(), low.next()]).to.deep.equal([0, 0, 0]);
    // Spread: many listeners' first reconnect covers the window evenly, not one instant.
    const firsts = Array.from({ length: 10_000 }, () => {
      const b = new Backoff();
      b.connected();
      return b.next();
    });
    const perSecond = new Array(FIRST_WINDOW_MS / 1000).fill(0);
    for (const w of firsts) perSecond[Math.floor(w / 1000)]++;
    expect(Math.max(...perSecond)).to.be.below(1_300);
    expect(Math.max(...firsts)).to.be.below(FIRST_WINDOW_MS);
    expect(MAX_WINDOW_MS).to.equal(300_000);
  });

  it('a listener whose server restarts on the same port reconnects by itself and answers again', async function () {
    this.timeout(120_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-listen-backoff-'));
    const allowed = writeFile(path.join(dir, 'operators'), `${(await govern(['fleet', 'key', path.join(dir, 'op.nk')])).stdout.trim()}\n`);
    let nats = await startNats();
    const child = spawn(GOVERN, ['listen', '--fleet-url', nats.url, '--fleet-name', 'web1', '--allowed-keys', allowed, '--run-command', '/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const { said, text } = stderrOf(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await said('listening on govern.run.web1');
      const port = nats.port;
      await nats.stop();
      await said('fleet connection: disconnect');
      nats = await startNats(`listen: "127.0.0.1:${port}"`);
      await said('fleet connection: reconnect');
      const nc = await connect({ servers: nats.url });
      try {
        const reply = JSON.parse((await nc.request('govern.run.web1', 'not a request', { timeout: 10_000 })).string()) as { accepted: boolean };
        expect(reply.accepted).to.equal(false);
      } finally {
        await nc.close();
      }
      expect(child.exitCode, text()).to.equal(null);
    } finally {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
