// Three real nats-servers (Debian's package) routed into one JetStream cluster on 127.0.0.1, each with
// its own store directory; a node can be stopped (SIGKILL: a crash, no leadership handed over) and
// started again on the same ports. `settled()` waits on the servers' own word (their monitoring
// endpoint, /jsz) that the cluster has one meta leader and that every stream has a leader and its
// replicas are current, so a test starts an outage from a known state instead of after a sleep.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NATS_SERVER } from './nats.js';

export interface ClusterNode {
  name: string;
  url: string;
  clientPort: number;
  routePort: number;
  monitorPort: number;
  /** Where leaf nodes (a site's server) connect. */
  leafPort: number;
  running: boolean;
  /** The running server's process id (benchmarks read its CPU and memory from /proc). */
  pid?: number;
}

export interface NatsCluster {
  nodes: ClusterNode[];
  /** Where the nodes' configurations and stores are: DIR/NAME is a node's store. */
  dir: string;
  /** Every node's client URL, comma-separated, as `--fleet-url` takes them. */
  urls: string;
  stop(node: number): Promise<void>;
  start(node: number): Promise<void>;
  /** Until every running node agrees on a meta leader and every stream has a leader with its replicas current. */
  settled(timeoutMs?: number): Promise<void>;
  /** The server leading a stream (by the running nodes' word), or undefined while none does. */
  streamLeader(stream: string): Promise<string | undefined>;
  /** Until `count` leaf nodes are connected to the running nodes, by their word (/leafz). */
  leafNodes(count: number, timeoutMs?: number): Promise<void>;
  /** The node a client of this name is connected to, or -1. */
  nodeOf(clientName: string): Promise<number>;
  close(): Promise<void>;
}

export async function startNatsCluster(): Promise<NatsCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-nats-cluster-'));
  // Ports the kernel picks, held together so that they differ, then given to the servers: a route
  // must be configured before its peer is up, and a restarted node comes back where clients and
  // peers look for it.
  const ports = await freePorts(12);
  const nodes: ClusterNode[] = [0, 1, 2].map((i) => ({
    name: `n${i + 1}`,
    clientPort: ports[i * 4],
    routePort: ports[i * 4 + 1],
    monitorPort: ports[i * 4 + 2],
    leafPort: ports[i * 4 + 3],
    url: `nats://127.0.0.1:${ports[i * 4]}`,
    running: false,
  }));
  const children: (ChildProcess | undefined)[] = [];
  const routes = nodes.map((n) => `"nats-route://127.0.0.1:${n.routePort}"`).join(', ');
  const start = async (i: number) => {
    const n = nodes[i];
    const file = path.join(dir, `${n.name}.conf`);
    fs.writeFileSync(
      file,
      [
        `server_name: ${n.name}`,
        `listen: "127.0.0.1:${n.clientPort}"`,
        `http: "127.0.0.1:${n.monitorPort}"`,
        // The hub's JetStream domain, which a site's leaf node names (docs/fleet.md, "Sites").
        `jetstream { store_dir: "${path.join(dir, n.name)}", domain: hub }`,
        `cluster { name: govern_test, listen: "127.0.0.1:${n.routePort}", routes: [${routes}] }`,
        `leafnodes { listen: "127.0.0.1:${n.leafPort}" }`,
        '',
      ].join('\n'),
    );
    const child = spawn(NATS_SERVER, ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    children[i] = child;
    n.pid = child.pid;
    await ready(child, n.name);
    n.running = true;
  };
  const stop = async (i: number) => {
    const child = children[i];
    nodes[i].running = false;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  };
  const cluster: NatsCluster = {
    nodes,
    dir,
    urls: nodes.map((n) => n.url).join(','),
    stop,
    start,
    settled: (timeoutMs = 60_000) => settled(nodes, timeoutMs),
    streamLeader: (stream) => streamLeader(nodes, stream),
    leafNodes: async (count, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const views = await Promise.all(nodes.filter((n) => n.running).map((n) => monitor<{ leafnodes?: number }>(n, '/leafz').catch(() => ({ leafnodes: 0 }))));
        if (views.reduce((sum, v) => sum + (v.leafnodes ?? 0), 0) >= count) return;
        if (Date.now() > deadline) throw new Error(`${count} leaf nodes did not connect within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 100)); // the servers announce nothing: polled, ended by the condition
      }
    },
    nodeOf: async (clientName) => {
      for (const [i, n] of nodes.entries()) {
        if (!n.running) continue;
        const connz = await monitor<{ connections?: { name?: string }[] }>(n, '/connz?limit=1024');
        if ((connz.connections ?? []).some((c) => c.name === clientName)) return i;
      }
      return -1;
    },
    close: async () => {
      for (const i of [0, 1, 2]) await stop(i);
      fs.rmSync(dir, { recursive: true, force: true });
      running.delete(cluster);
    },
  };
  running.add(cluster);
  try {
    await Promise.all([0, 1, 2].map(start));
  } catch (e) {
    await cluster.close();
    throw e;
  }
  return cluster;
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve(s));
    })),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

function ready(child: ChildProcess, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr!.setEncoding('utf8');
    const onData = (chunk: string) => {
      text += chunk;
      if (text.includes('Server is ready')) {
        child.stderr!.off('data', onData);
        child.stderr!.resume(); // keep draining: a full pipe would block the server's logging
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`nats-server ${name} exited (${code}) before it was ready:\n${text}`));
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

interface Jsz {
  meta_cluster?: { leader?: string; replicas?: { name: string; current: boolean; offline?: boolean }[] };
  account_details?: { stream_detail?: { name: string; cluster?: { leader?: string; replicas?: { name: string; current: boolean; offline?: boolean }[] } }[] }[];
}

function jsz(node: ClusterNode): Promise<Jsz> {
  return monitor<Jsz>(node, '/jsz?accounts=true&streams=true');
}

function monitor<T>(node: ClusterNode, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: node.monitorPort, path: what, timeout: 2_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body) as T);
        } catch (e) {
          reject(e as Error);
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer')));
    req.on('error', reject);
  });
}

/** What is not settled yet, in words; undefined once it is. */
async function unsettled(nodes: ClusterNode[]): Promise<string | undefined> {
  const up = nodes.filter((n) => n.running);
  const views = await Promise.all(up.map((n) => jsz(n).catch(() => undefined)));
  if (views.some((v) => v === undefined)) return 'a node does not answer /jsz';
  const leaders = new Set(views.map((v) => v!.meta_cluster?.leader ?? ''));
  if (leaders.size !== 1 || leaders.has('')) return `meta leaders: ${[...leaders].join(' ') || 'none'}`;
  const leader = up.findIndex((n) => leaders.has(n.name));
  if (leader < 0) return `meta leader ${[...leaders][0]} is not running`;
  const meta = views[leader]!.meta_cluster!;
  const upNames = new Set(up.map((n) => n.name));
  for (const r of meta.replicas ?? []) if (upNames.has(r.name) && (!r.current || r.offline)) return `meta peer ${r.name} not current`;
  // A follower does not follow its peers' progress: a stream's replicas are current by its leader's word.
  for (const [i, v] of views.entries()) {
    for (const s of (v!.account_details ?? []).flatMap((a) => a.stream_detail ?? [])) {
      if (!s.cluster?.leader) return `stream ${s.name} has no leader`;
      if (s.cluster.leader !== up[i].name) continue;
      for (const r of s.cluster.replicas ?? []) if (upNames.has(r.name) && (!r.current || r.offline)) return `stream ${s.name}: replica ${r.name} not current`;
    }
  }
  return undefined;
}

async function settled(nodes: ClusterNode[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const why = await unsettled(nodes);
    if (why === undefined) return;
    if (Date.now() > deadline) throw new Error(`the cluster did not settle within ${timeoutMs / 1000} s: ${why}`);
    // Polling the servers' state, which announces nothing: the condition, not the time, ends the wait.
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function streamLeader(nodes: ClusterNode[], stream: string): Promise<string | undefined> {
  for (const n of nodes.filter((n) => n.running)) {
    const v = await jsz(n).catch(() => undefined);
    const s = (v?.account_details ?? []).flatMap((a) => a.stream_detail ?? []).find((d) => d.name === stream);
    if (s?.cluster?.leader) return s.cluster.leader;
  }
  return undefined;
}

const running = new Set<NatsCluster>();

/** Stops every cluster a test started and did not close. */
export async function stopAllClusters(): Promise<void> {
  for (const c of [...running]) await c.close();
}
