// What keeping each host's last runs in govern_runs (RUNS_HISTORY) costs: two nats-servers filled
// alike, HOSTS hosts publishing RUNS runs each, one bucket made with one value per key and the other
// with RUNS_HISTORY; then `govern fleet` over every host on each, alternately (paired ratio), the
// store and memory of each server, and `govern fleet history HOST` on the second. docs/fleet.md
// quotes the figures.
//   node dist/bench/fleet/history.js [--hosts 10000] [--runs 10] [--rounds 5]
import fs from 'node:fs';
import path from 'node:path';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { RUNS_HISTORY } from '../../src/fleet/settings.js';
import { runCommand } from '../../src/shared/process.js';
import { GOVERN } from '../../test/support/cli.js';
import { startNats, type NatsServer } from '../../test/support/nats.js';
import { simulatedRun } from '../../test/fleet/support.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const HOSTS = Number(args.get('hosts') ?? 10_000);
const RUNS = Number(args.get('runs') ?? RUNS_HISTORY);
const ROUNDS = Number(args.get('rounds') ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const name = (i: number) => `host${String(i).padStart(6, '0')}.example.org`;

function rssMiB(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

function storeMiB(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else total += fs.statSync(path.join(d, e.name)).size;
    }
  };
  walk(dir);
  return total / 1024 / 1024;
}

/** RUNS runs for every host, round by round (as the fleet's timer would), 1,000 puts in flight. */
async function fill(nats: NatsServer, history: number): Promise<void> {
  const nc = await connect({ servers: nats.url });
  const kvm = new Kvm(nc);
  const runs = await kvm.create('govern_runs', { history });
  const facts = await kvm.create('govern_facts', { history: 1 });
  for (let r = 0; r < RUNS; r++) {
    for (let i = 0; i < HOSTS; i += 1_000) {
      const puts: Promise<unknown>[] = [];
      for (let j = i; j < Math.min(HOSTS, i + 1_000); j++) {
        puts.push(runs.put(name(j), JSON.stringify(simulatedRun(name(j), { commit: `${r}`.repeat(40).slice(0, 40), changed: r % 3 }))));
        if (r === 0) puts.push(facts.put(name(j), JSON.stringify({ format: 1, host: name(j), at: new Date().toISOString(), facts: { fqdn: name(j), role: j % 2 ? 'db' : 'web' } })));
      }
      await Promise.all(puts);
    }
  }
  await nc.close();
}

async function timed(argv: string[]): Promise<number> {
  const start = process.hrtime.bigint();
  const r = await runCommand(argv[0], argv.slice(1), { timeoutMs: 120_000, maxOutputBytes: 64 * 1024 * 1024 });
  if (r.code === null || r.code > 3) throw new Error(`${argv.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return ms(start);
}

async function main(): Promise<void> {
  const one = await startNats();
  const kept = await startNats();
  try {
    let start = process.hrtime.bigint();
    await fill(one, 1);
    console.log(`history 1: ${HOSTS} hosts x ${RUNS} runs put in ${(ms(start) / 1000).toFixed(1)} s; store ${storeMiB(one.dir).toFixed(1)} MiB; RSS ${rssMiB(one.pid).toFixed(0)} MiB`);
    start = process.hrtime.bigint();
    await fill(kept, RUNS_HISTORY);
    console.log(`history ${RUNS_HISTORY}: ${HOSTS} hosts x ${RUNS} runs put in ${(ms(start) / 1000).toFixed(1)} s; store ${storeMiB(kept.dir).toFixed(1)} MiB; RSS ${rssMiB(kept.pid).toFixed(0)} MiB`);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i <= ROUNDS; i++) {
      const x = await timed([GOVERN, 'fleet', '--fleet-url', kept.url, '--fleet-timeout', '60s']);
      const y = await timed([GOVERN, 'fleet', '--fleet-url', one.url, '--fleet-timeout', '60s']);
      if (i === 0) continue; // one of each not counted
      a.push(x);
      b.push(y);
    }
    console.log(`govern fleet over ${HOSTS}: history ${RUNS_HISTORY} ${median(a).toFixed(0)} ms, history 1 ${median(b).toFixed(0)} ms; ratio ${median(a.map((x, i) => x / b[i])).toFixed(2)} (medians of ${ROUNDS} pairs)`);
    const h: number[] = [];
    const status: number[] = [];
    for (let i = 0; i <= ROUNDS; i++) {
      const x = await timed([GOVERN, 'fleet', 'history', name(i), '--fleet-url', kept.url]);
      const y = await timed([GOVERN, 'status', '--var-dir', kept.dir]);
      if (i === 0) continue;
      h.push(x);
      status.push(y);
    }
    console.log(`govern fleet history HOST: ${median(h).toFixed(0)} ms; govern status ${median(status).toFixed(0)} ms; ratio ${median(h.map((x, i) => x / status[i])).toFixed(2)}`);
  } finally {
    await one.stop();
    await kept.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
