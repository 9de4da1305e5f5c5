// The fleet on a three-node JetStream cluster of real nats-servers on 127.0.0.1 (test/support/
// nats-cluster.ts): the buckets get three replicas, and one node crashing (SIGKILL) and coming back
// loses nothing. The node stopped is the one the host's `govern listen` is connected to and the one
// leading the runs bucket's stream, so the outage begins with an election; the outage's checks run
// both during the election and after it, when the crashed node is still a peer of every stream.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { startNats, stopAllNats } from '../support/nats.js';
import { startNatsCluster, type NatsCluster } from '../support/nats-cluster.js';
import { fleetRun, listener, stopListeners } from './listeners.js';
import { fleet, fleetHost, type FleetHost } from './support.js';

const RUNS_STREAM = 'KV_govern_runs';

async function replicasOf(url: string, stream: string): Promise<number> {
  const nc = await connect({ servers: url });
  try {
    return (await (await jetstreamManager(nc)).streams.info(stream)).config.num_replicas;
  } finally {
    await nc.close();
  }
}

/** Moves the stream's leadership until `node` leads it: each step down elects one of the other peers. */
async function leadOn(cluster: NatsCluster, stream: string, node: number): Promise<void> {
  const nc = await connect({ servers: cluster.urls });
  try {
    for (let tries = 0; (await cluster.streamLeader(stream)) !== cluster.nodes[node].name; tries++) {
      if (tries === 20) throw new Error(`${stream}'s leadership did not come to ${cluster.nodes[node].name}`);
      try {
        await nc.request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`, '', { timeout: 10_000 });
      } catch (e) {
        // The answer can be lost in the election the step-down begins, or no peer answer while one
        // is under way (it timed out once with both cores busy): the loop reads the leader again.
        if (!['TimeoutError', 'NoRespondersError', 'RequestError'].includes((e as Error).name)) throw e;
      }
      await cluster.settled();
    }
  } finally {
    await nc.close();
  }
}

/** A run of the host that published: its exit 0, and no warning that publishing failed. */
async function published(host: FleetHost, extra: string[] = []): Promise<void> {
  const r = await host.run(extra);
  expect(r.code, r.stderr).to.equal(0);
  expect(r.stderr, r.stderr).to.not.include("not published");
}

function lastStarted(host: FleetHost): string {
  return (JSON.parse(fs.readFileSync(path.join(host.varDir, 'last-run.json'), 'utf8')) as { started_at: string }).started_at;
}

interface FleetJson {
  status: string;
  hosts: { host: string; state: string; run?: { started_at: string } }[];
}

async function fleetJson(cluster: NatsCluster, extra: string[] = []): Promise<FleetJson> {
  const r = await fleet(cluster.urls, ['--json', ...extra]);
  expect(r.code, r.stdout + r.stderr).to.equal(0);
  return JSON.parse(r.stdout) as FleetJson;
}

describe('the fleet on a three-node JetStream cluster', function () {
  this.timeout(600_000);
  let cluster: NatsCluster;
  beforeEach(async () => {
    cluster = await startNatsCluster();
    await cluster.settled();
  });
  afterEach(async () => {
    await stopListeners();
    await stopAllNats();
    await cluster?.close();
  });

  it('makes the buckets with three replicas on a cluster, or as many as --replicas says', async () => {
    const r = await fleet(cluster.urls, ['--json']);
    expect(JSON.parse(r.stdout)).to.include({ status: 'UNKNOWN' }); // no host yet
    expect(await replicasOf(cluster.urls, 'KV_govern_runs')).to.equal(3);
    expect(await replicasOf(cluster.urls, 'KV_govern_facts')).to.equal(3);
    const nc = await connect({ servers: cluster.urls });
    await (await jetstreamManager(nc)).streams.delete('KV_govern_runs');
    await nc.close();
    await fleet(cluster.urls, ['--replicas', '2']);
    expect(await replicasOf(cluster.urls, 'KV_govern_runs')).to.equal(2);
    const bad = await fleet(cluster.urls, ['--replicas', '7']);
    expect([bad.code, bad.stderr]).to.deep.equal([3, 'govern: --replicas (GOVERN_FLEET_REPLICAS) must be 1 to 5 (NATS replicates a stream at most 5 times), not 7\n']);
  });

  it('a node crashes and returns: publishes go on, govern fleet answers, govern listen reconnects, nothing is lost', async () => {
    const hosts = ['web1', 'web2', 'web3', 'db1'].map((name) => fleetHost(name, cluster.urls, { role: name.slice(0, -1) }));
    await fleet(cluster.urls); // the operators' first govern fleet makes the buckets
    for (const h of hosts) await published(h);
    await cluster.settled();
    await listener(hosts[0], cluster.urls);
    const down = await cluster.nodeOf('govern listen web1');
    expect(down).to.be.at.least(0);
    await leadOn(cluster, RUNS_STREAM, down);

    await cluster.stop(down);
    // Within the election: a run's publish and govern fleet wait for the new leader, in their time.
    await published(hosts[1], ['--fleet-timeout', '60s']);
    expect((await fleetJson(cluster, ['--fleet-timeout', '60s'])).status).to.equal('OK');
    await cluster.settled();
    expect(await cluster.streamLeader(RUNS_STREAM)).to.not.equal(cluster.nodes[down].name);
    // After it, the crashed node is still a peer of every stream: reads must not depend on it.
    for (let i = 0; i < 5; i++) expect((await fleetJson(cluster)).hosts).to.have.length(4);
    for (const h of hosts) await published(h);
    // The listener dials again after a random wait, up to 10 s for its first try (src/fleet/backoff.ts):
    // the request is made once it is back on one of the two nodes left.
    for (const end = Date.now() + 120_000; (await cluster.nodeOf('govern listen web1')) < 0; await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > end) throw new Error('govern listen web1 did not reconnect within 2 minutes');
    }
    // Its watch of the runs is a consumer, placed anew at each try: tried within --fleet-timeout.
    const rollout = await fleetRun(cluster.urls, ['--where', 'fqdn=web1', '--timeout', '5m', '--fleet-timeout', '60s']);
    expect(rollout.code, rollout.stdout + rollout.stderr).to.equal(0);
    expect(rollout.stdout).to.include('every selected host (1) ran successfully');

    await cluster.start(down);
    await cluster.settled();
    await published(hosts[3]);
    const fleetNow = await fleetJson(cluster);
    const last = Object.fromEntries(fleetNow.hosts.map((h) => [h.host, h.run?.started_at]));
    expect(last).to.deep.equal(Object.fromEntries(hosts.map((h) => [h.name, lastStarted(h)])));
    // And the node that came back leads the stream with all of it (settled: its replica is current).
    await leadOn(cluster, RUNS_STREAM, down);
    expect(Object.fromEntries((await fleetJson(cluster)).hosts.map((h) => [h.host, h.run?.started_at]))).to.deep.equal(last);
  });

  it("a site: a host publishing to the site's leaf node is in govern fleet on the hub", async () => {
    const remotes = cluster.nodes.map((n) => `"nats-leaf://127.0.0.1:${n.leafPort}"`).join(', ');
    // The site's server as docs/fleet.md has it: no JetStream of its own, the hub's domain for its clients.
    const site = await startNats(`leafnodes { remotes: [ { urls: [${remotes}] } ] }\ndefault_js_domain: { "$G": hub }`, { jetstream: false });
    await fleet(cluster.urls); // the buckets, with three replicas, on the hub
    await cluster.leafNodes(1);
    const web9 = fleetHost('web9.site2', site.url, { role: 'web' });
    await published(web9);
    const seen = await fleetJson(cluster);
    expect(seen.hosts.map((h) => [h.host, h.state, h.run?.started_at])).to.deep.equal([['web9.site2', 'ok', lastStarted(web9)]]);
    // The site's own reads (govern fleet there, its hosts' inventory) go through it too.
    const there = await fleet(site.url, ['--json']);
    expect(JSON.parse(there.stdout).hosts.map((h: { host: string }) => h.host), there.stderr).to.deep.equal(['web9.site2']);
  });
});
