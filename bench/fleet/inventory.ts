// The fleet layer at 10,000 hosts, on one nats-server on this machine: what publishing costs the
// server (CPU, memory) and a run (the time it waits), and what reading the fleet costs: `govern fleet`
// over every host, and `hosts` over every host in a template, each paired with a baseline command
// measured alternately in the same session (ratios). docs/fleet.md quotes the figures.
//   node dist/bench/fleet/inventory.js [--hosts 10000] [--rounds 5] [--parallel 50] [--fill-over N]
//     [--baseline MAIN/bin/govern [--only TEXT: the paired reads whose name has TEXT]] [--cluster]
// --cluster: three nats-servers in one JetStream cluster on 127.0.0.1 (buckets of 3 replicas), the
// hosts given the three URLs; the servers' CPU and memory summed over the three, and per node.
// Run on a quiet machine (its figures are for one 2-core machine that holds server and clients).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { LocalFacts } from '../../src/facts/local-facts.js';
import { publishAfterRun } from '../../src/fleet/after-run.js';
import { hostRun, publishableFacts, type HostFacts } from '../../src/fleet/host-record.js';
import { publishHost } from '../../src/fleet/publish.js';
import { putHostValues } from '../../src/fleet/index-publish.js';
import type { RunReport } from '../../src/report/types.js';
import { runCommand } from '../../src/shared/process.js';
import { GOVERN, ROOT } from '../../test/support/cli.js';
import { memoryText, perNodeCpu, perNodeText, serversCpu, startServers, type BenchServers } from './servers.js';

const CLUSTER = process.argv.includes('--cluster');
const argv = process.argv.slice(2).filter((a) => a !== '--cluster');
const args = new Map<string, string>();
for (let i = 0; i < argv.length; i += 2) args.set(argv[i].replace(/^--/, ''), argv[i + 1]);
const HOSTS = Number(args.get('hosts') ?? 10_000);
const ROUNDS = Number(args.get('rounds') ?? 5);
/** Hosts publishing at once while the fleet is filled. */
const PARALLEL = Number(args.get('parallel') ?? 50);
/** 0: a connection per host publishing; N: N connections shared, as listeners hold them. */
const FILL_OVER = Number(args.get('fill-over') ?? 0);
/** Another build's bin/govern (main's): each read is paired against it on the same server. */
const BASELINE = args.get('baseline');
/**
 * What a site's own facts.d adds on a real host (its application, data centre, rack, hardware,
 * packages of interest): 40 more facts, for about 2 kB of facts a host in all.
 */
function userFacts(i: number): Record<string, string> {
  const facts: Record<string, string> = {};
  for (let f = 0; f < 40; f++) facts[`site/group${f % 5}/fact${f}`] = `value-${f}-${i}-${'x'.repeat(12)}`;
  return facts;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** A run report as a host of 120 resources leaves it after a run with two changes. */
function report(host: string, commit: string): RunReport {
  const resources = Array.from({ length: 120 }, (_, i) => ({ ref: `file:/etc/app/conf.d/${i}.conf`, status: i < 2 ? 'changed' : 'unchanged', message: '', duration_ms: 3, log: [], where: `site.hcl:${i * 6 + 1}` }));
  return {
    host,
    govern_version: '0.1.0',
    started_at: new Date(Date.now() - 4_000).toISOString(),
    state: '/etc/govern/states',
    commit,
    noop: false,
    errors: [],
    resources,
    notifications: [],
    timings: {},
    summary: { resources: 120, changed: 2, unchanged: 118, failed: 0, skipped: 0, excluded: 0, notifications_sent: 1, notifications_noop: 0, notifications_failed: 0, notifications_skipped: 0, duration_ms: 4_000 },
  } as unknown as RunReport;
}

interface Paired {
  /** Medians of wall milliseconds. */
  a: number;
  b: number;
  /** Median of the wall ratios A/B, pair by pair. */
  ratio: number;
  /** Medians of CPU milliseconds (user + system, from /usr/bin/time), less sensitive than wall to a busy machine. */
  aCpu: number;
  bCpu: number;
}

/** Whole commands A and B, alternately, after one of each not counted. */
async function paired(a: string[], b: string[], env: NodeJS.ProcessEnv, servers?: BenchServers): Promise<Paired & { aServer: number; bServer: number }> {
  const server = { a: [] as number[], b: [] as number[] };
  const timeFile = path.join(os.tmpdir(), `govern-bench-time-${process.pid}`);
  const samples = { a: [] as number[], b: [] as number[], aCpu: [] as number[], bCpu: [] as number[] };
  const unanswered: string[] = [];
  /** Each counted run of A: its wall and, when not 0, its exit code (a read that timed out shows). */
  const aRuns: string[] = [];
  console.error(`measuring ${a.slice(0, 3).join(' ')} ... against ${b.slice(0, 2).join(' ')} ...: ${2 * (ROUNDS + 1)} runs`);
  const nodes0 = servers === undefined ? [] : perNodeCpu(servers);
  const run = async (argv: string[], wall: number[], cpu: number[], serverCpu: number[] = []) => {
    const before = servers === undefined ? 0 : serversCpu(servers);
    const start = process.hrtime.bigint();
    const r = await runCommand('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, ...argv], { env: { ...process.env, ...env }, timeoutMs: 120_000, maxOutputBytes: 64 * 1024 * 1024 });
    wall.push(ms(start));
    if (servers !== undefined) serverCpu.push((serversCpu(servers) - before) * 1000);
    const [user, sys] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    cpu.push((user + sys) * 1000);
    if (wall === samples.a) aRuns.push(`${wall[wall.length - 1].toFixed(0)} ms${r.code === 0 ? '' : ` (exit ${r.code})`}`);
    if (r.code !== 0 && r.code !== 1 && r.code !== 3) throw new Error(`${argv.join(' ')}: exit ${r.code}: ${r.stderr}`);
    // A fleet read that could not read the fleet (UNKNOWN, exit 3, with an error) is not a read:
    // counted and said, so that a timeout is never taken for a figure (docs/fleet.md).
    if (r.code === 3 && argv.includes('fleet') && r.stderr.trim() !== '') unanswered.push(r.stderr.trim().split('\n').pop()!);
  };
  await run(a, [], []);
  await run(b, [], []);
  for (let i = 0; i < ROUNDS; i++) {
    await run(a, samples.a, samples.aCpu, server.a);
    await run(b, samples.b, samples.bCpu, server.b);
  }
  fs.rmSync(timeFile, { force: true });
  const nodes = servers === undefined ? '' : perNodeText(servers, nodes0, (seconds) => `${seconds.toFixed(2)} s`);
  console.log(`  each run of ${a.slice(1, 3).join(' ')}: ${aRuns.join(', ')}${nodes === '' ? '' : `; server CPU over all ${2 * (ROUNDS + 1)} runs by node${nodes}`}`);
  if (unanswered.length > 0) console.log(`  ${unanswered.length} of ${2 * (ROUNDS + 1)} runs (of both commands, uncounted ones too) did not read the fleet: ${unanswered[0]}`);
  return { a: median(samples.a), b: median(samples.b), ratio: median(samples.a.map((x, i) => x / samples.b[i])), aCpu: median(samples.aCpu), bCpu: median(samples.bCpu), aServer: median(server.a) ?? 0, bServer: median(server.b) ?? 0 };
}

const cpuText = (p: Paired) => `CPU ${p.aCpu.toFixed(0)} ms against ${p.bCpu.toFixed(0)} ms`;

async function main(): Promise<void> {
  const nats = await startServers(CLUSTER);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-bench-fleet-'));
  try {
    // This machine's facts, as a host publishes them, with a role, an environment and an address.
    const local = new LocalFacts({ dirs: [path.join(ROOT, 'facts.d')] });
    const own = await publishableFacts(local);
    const facts = (i: number): HostFacts => ({
      format: 1,
      host: `host${String(i).padStart(5, '0')}.example.org`,
      at: new Date().toISOString(),
      facts: { ...own, ...userFacts(i), fqdn: `host${String(i).padStart(5, '0')}.example.org`, role: i % 2 === 0 ? 'web' : i % 100 === 1 ? 'lb' : 'db', env: 'production', 'network/primary/ip': `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}` },
    });
    const names = Array.from({ length: HOSTS }, (_, i) => `host${String(i).padStart(5, '0')}.example.org`);
    const sampleRun = JSON.stringify(hostRun(names[0], report(names[0], 'a'.repeat(40))));
    const sampleFacts = JSON.stringify(facts(0));
    console.log(`${CLUSTER ? 'a cluster of 3 nats-servers' : 'one nats-server'}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; hosts ${HOSTS}, rounds ${ROUNDS}; a run record ${sampleRun.length} bytes, facts ${sampleFacts.length} bytes (${Object.keys(facts(0).facts).length} facts)`);

    // Make the buckets as the operators' first govern fleet does.
    await runCommand(GOVERN, ['fleet', '--fleet-url', nats.url], { timeoutMs: 60_000 });

    // Fill: each host publishes its run and facts with its index entries (index-publish.ts), PARALLEL
    // at a time: over a connection of its own each (connect, publish, close: what a run without a
    // listener does), or with --fill-over N over N long-lived connections, as listeners relay them
    // (the same puts, without a handshake per host: a fleet of 100,000 fills in minutes, not hours).
    const cpu0 = serversCpu(nats);
    const nodes0 = perNodeCpu(nats);
    const fillStart = process.hrtime.bigint();
    const settings = { url: nats.url, timeoutMs: 30_000 };
    const shared = await Promise.all(Array.from({ length: FILL_OVER }, () => connect({ servers: nats.url.split(',') })));
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async (_, w) => {
        while (next < HOSTS) {
          const i = next++;
          const run = hostRun(names[i], report(names[i], 'a'.repeat(40)));
          if (FILL_OVER === 0) {
            const outcome = await publishHost(settings, run, facts(i));
            if (!outcome.ok || outcome.index !== undefined) failed++;
          } else {
            const puts = [{ bucket: 'govern_runs', key: names[i], value: JSON.stringify(run) }, { bucket: 'govern_facts', key: names[i], value: JSON.stringify(facts(i)) }];
            if ((await putHostValues(shared[w % FILL_OVER], names[i], puts, { deadline: Date.now() + 30_000 })) !== undefined) failed++;
          }
        }
      }),
    );
    await Promise.all(shared.map((nc) => nc.close()));
    const fillMs = ms(fillStart);
    const fillCpu = serversCpu(nats) - cpu0;
    const perHost = (seconds: number) => `${((seconds * 1000) / HOSTS).toFixed(2)} ms a host`;
    console.log(`fill: ${HOSTS} hosts published in ${(fillMs / 1000).toFixed(1)} s (${failed} failed), ${PARALLEL} at a time: server CPU ${fillCpu.toFixed(2)} s, ${perHost(fillCpu)}${perNodeText(nats, nodes0, perHost)}; load ${os.loadavg()[0].toFixed(1)}`);
    console.log(`server memory after the fill: ${memoryText(nats, HOSTS)}; store ${storeBytes(nats.dir)} MiB`);

    // What a run waits for, the fleet full: publishing alone, and with the facts read (after-run.ts).
    const alone: number[] = [];
    const whole: number[] = [];
    for (let i = 0; i < ROUNDS * 4; i++) {
      const name = names[i];
      let start = process.hrtime.bigint();
      await publishHost(settings, hostRun(name, report(name, 'b'.repeat(40))), facts(i));
      alone.push(ms(start));
      start = process.hrtime.bigint();
      const outcome = await publishAfterRun({ settings, name, report: report(name, 'c'.repeat(40)), facts: new LocalFacts({ dirs: [path.join(ROOT, 'facts.d')] }), varDir: dir }, (t) => console.error(t));
      if (!outcome.ok) throw new Error(outcome.error);
      whole.push(ms(start));
    }
    console.log(`publish seen by a run: ${median(alone).toFixed(1)} ms (connect, two puts, close); with this host's facts evaluated: ${median(whole).toFixed(1)} ms (medians of ${alone.length})`);

    const env = { GOVERN_VAR_DIR: dir };
    if (BASELINE !== undefined) {
      await againstBaseline(BASELINE, nats, env, dir);
      return;
    }
    // Reading the fleet: govern fleet over every host, against govern status (a command that reads one file).
    const fleet = await paired([GOVERN, 'fleet', '--fleet-url', nats.url], [GOVERN, 'status'], env, nats);
    console.log(`govern fleet over ${HOSTS} hosts: ${fleet.a.toFixed(0)} ms; govern status ${fleet.b.toFixed(0)} ms; ratio ${fleet.ratio.toFixed(2)} (medians of ${ROUNDS}); ${cpuText(fleet)}; server CPU per govern fleet ${fleet.aServer.toFixed(0)} ms; load ${os.loadavg()[0].toFixed(1)}`);
    const selected = await paired([GOVERN, 'fleet', '--fleet-url', nats.url, '--where', 'role=web', '--json'], [GOVERN, 'status'], env, nats);
    console.log(`govern fleet --where role=web --json (${HOSTS / 2} of ${HOSTS}): ${selected.a.toFixed(0)} ms; ratio to govern status ${selected.ratio.toFixed(2)}; ${cpuText(selected)}; server CPU ${selected.aServer.toFixed(0)} ms`);
    const lb = await paired([GOVERN, 'fleet', '--fleet-url', nats.url, '--where', 'role=lb', '--json'], [GOVERN, 'status'], env, nats);
    console.log(`govern fleet --where role=lb --json (${HOSTS / 100} of ${HOSTS}): ${lb.a.toFixed(0)} ms; ratio to govern status ${lb.ratio.toFixed(2)}; ${cpuText(lb)}; server CPU ${lb.aServer.toFixed(0)} ms`);

    // hosts over every host in a template, against the same template without the fleet.
    const template = path.join(dir, 'backends.hbs');
    fs.writeFileSync(template, '{{#each (hosts "role=web")}}server {{this.name}} {{lookup this.facts "network/primary/ip"}};\n{{/each}}');
    const plain = path.join(dir, 'plain.hbs');
    fs.writeFileSync(plain, 'server {{fact "hostname"}};\n');
    const hosts = await paired([GOVERN, 'render', template, '--fleet-url', nats.url], [GOVERN, 'render', plain], env, nats);
    console.log(`govern render with hosts over ${HOSTS} (${HOSTS / 2} lines): ${hosts.a.toFixed(0)} ms; a one-fact template ${hosts.b.toFixed(0)} ms; ratio ${hosts.ratio.toFixed(2)}; ${cpuText(hosts)}; server CPU ${hosts.aServer.toFixed(0)} ms`);
    console.log(`server at the end: ${memoryText(nats)}, CPU ${serversCpu(nats).toFixed(2)} s in all; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    await checkCount(nats.url);
  } finally {
    await nats.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Each read by this build and by the baseline's, alternately on the same server, with the server's CPU
 * for each: `govern fleet --where`, and the other readers of a selection (the `hosts` helper in a
 * template, govern fleet run's with --noop, which asks none).
 */
async function againstBaseline(baseline: string, nats: BenchServers, env: NodeJS.ProcessEnv, dir: string): Promise<void> {
  const template = path.join(dir, 'lb.hbs');
  fs.writeFileSync(template, '{{#each (hosts "role=lb")}}server {{this.name}} {{lookup this.facts "network/primary/ip"}};\n{{/each}}');
  const fleet = ['fleet', '--fleet-url', nats.url];
  const reads: [string, string[]][] = [
    ['govern fleet --where role=web --json (half)', [...fleet, '--where', 'role=web', '--json']],
    ['govern fleet --where role=lb --json (1%)', [...fleet, '--where', 'role=lb', '--json']],
    ['govern fleet --where role=lb --where env=production --json (1%)', [...fleet, '--where', 'role=lb', '--where', 'env=production', '--json']],
    ['govern fleet --where role=lb --where fqdn=host00101.example.org (one host)', [...fleet, '--where', 'role=lb', '--where', 'fqdn=host00101.example.org']],
    ['govern fleet (every host)', fleet],
    ['govern render of hosts "role=lb" (1%)', ['render', template, '--fleet-url', nats.url]],
    ['govern fleet run --where role=lb --noop (1%)', ['fleet', 'run', '--fleet-url', nats.url, '--where', 'role=lb', '--noop']],
  ];
  const only = args.get('only');
  for (const [name, argv] of reads) {
    if (only !== undefined && !name.includes(only)) continue;
    const p = await paired([GOVERN, ...argv], [baseline, ...argv], env, nats);
    console.log(`${name}: this build ${p.a.toFixed(0)} ms, baseline ${p.b.toFixed(0)} ms, ratio ${p.ratio.toFixed(3)} (median of ${ROUNDS} pairs); client ${cpuText(p)}; server CPU ${p.aServer.toFixed(0)} ms against ${p.bServer.toFixed(0)} ms; load ${os.loadavg()[0].toFixed(1)}`);
  }
}

function storeBytes(dir: string): string {
  let total = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else total += fs.statSync(p).size;
    }
  };
  walk(dir);
  return (total / 1024 / 1024).toFixed(1);
}

async function checkCount(url: string): Promise<void> {
  const nc = await connect({ servers: url.split(',') });
  const kvm = new Kvm(nc);
  const runs = await (await kvm.open('govern_runs')).status();
  const facts = await (await kvm.open('govern_facts')).status();
  console.log(`buckets (${runs.replicas} replicas): govern_runs ${runs.values} values, ${(runs.size / 1024 / 1024).toFixed(1)} MiB; govern_facts ${facts.values} values, ${(facts.size / 1024 / 1024).toFixed(1)} MiB`);
  await nc.close();
}

// Node ends with status 0 when nothing is left to wait for, even with main() unsettled: said, and not 0.
let ended = false;
process.on('exit', (code) => {
  if (!ended && code === 0) {
    console.error('inventory.js: ended before its last figure (nothing left to wait for, main() unsettled)');
    process.exitCode = 70;
  }
});
main().then(
  () => (ended = true),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
