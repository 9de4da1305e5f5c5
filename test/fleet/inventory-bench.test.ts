// bench/fleet/inventory.ts, the command docs/fleet.md gives for the fleet's figures, run small on one
// real nats-server and on the real three-node cluster: it fills the fleet, and every host is read back.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { NATS_SERVER } from '../support/nats.js';

const SCRIPT = path.resolve(__dirname, '..', '..', 'bench', 'fleet', 'inventory.js');

describe('the fleet benchmark, bench/fleet/inventory.ts #once', function () {
  this.timeout(300_000);
  for (const cluster of [false, true]) {
    it(`fills 20 hosts and reads every one back, ${cluster ? 'on a three-node cluster (--cluster)' : 'on one server'}`, async function () {
      if (!fs.existsSync(NATS_SERVER)) {
        console.log(`      skipped: ${NATS_SERVER} is not installed (Debian's nats-server)`);
        this.skip();
      }
      const r = await runCommand(process.execPath, [SCRIPT, '--hosts', '20', '--rounds', '1', ...(cluster ? ['--cluster'] : [])], { timeoutMs: 240_000 });
      expect(r.code, `${r.stdout}\n${r.stderr}`).to.equal(0);
      const lines = r.stdout.split('\n');
      const summary = lines.findIndex((l) => l.startsWith('govern fleet over 20 hosts: '));
      expect(summary, r.stdout).to.be.greaterThan(0);
      expect(lines[summary - 1], 'the read of every host exits 0').to.match(/^ {2}each run of fleet --fleet-url: \d+ ms(;|$)/);
      expect(r.stdout).to.match(new RegExp(`^buckets \\(${cluster ? 3 : 1} replicas\\): govern_runs \\d+ values, [\\d.]+ MiB; govern_facts 20 values,`, 'm'));
    });
  }
});
