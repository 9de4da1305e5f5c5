// The server side of bench/fleet/inventory.ts: one nats-server (test/support/nats.ts), or with
// --cluster three routed into one JetStream cluster on 127.0.0.1 (test/support/nats-cluster.ts, the
// cluster the tests run). Its CPU and memory are read from /proc, summed over the nodes and per node.
import fs from 'node:fs';
import { startNatsCluster } from '../../test/support/nats-cluster.js';
import { startNats } from '../../test/support/nats.js';

export interface BenchServers {
  /** What hosts are given as --fleet-url: one URL, or the cluster's comma-separated. */
  url: string;
  /** Each server's name and process id. */
  nodes: { name: string; pid: number }[];
  /** The directory holding every server's store. */
  dir: string;
  stop(): Promise<void>;
}

const CLK_TCK = 100;

export async function startServers(cluster: boolean): Promise<BenchServers> {
  if (!cluster) {
    const nats = await startNats();
    return { url: nats.url, nodes: [{ name: 'server', pid: nats.pid }], dir: nats.dir, stop: () => nats.stop() };
  }
  const c = await startNatsCluster();
  // The buckets are made with 3 replicas (buckets.ts) once the cluster has its meta leader.
  await c.settled();
  return { url: c.urls, nodes: c.nodes.map((n) => ({ name: n.name, pid: n.pid! })), dir: c.dir, stop: () => c.close() };
}

export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** CPU seconds of every server, summed. */
export function serversCpu(s: BenchServers): number {
  return s.nodes.reduce((sum, n) => sum + cpuSeconds(n.pid), 0);
}

/** Each server's CPU seconds so far, in the order of `nodes` (a reading for perNodeText). */
export function perNodeCpu(s: BenchServers): number[] {
  return s.nodes.map((n) => cpuSeconds(n.pid));
}

export function memoryKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

const mib = (kib: number) => (kib / 1024).toFixed(0);

/** RSS and peak, summed over the servers and, for a cluster, per node; per host when `hosts` is given. */
export function memoryText(s: BenchServers, hosts?: number): string {
  const rss = s.nodes.map((n) => memoryKiB(n.pid, 'VmRSS'));
  const hwm = s.nodes.map((n) => memoryKiB(n.pid, 'VmHWM'));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const perHost = (kib: number) => (hosts === undefined ? '' : ` (${((kib * 1024) / hosts / 1000).toFixed(2)} kB a host)`);
  const total = `RSS ${mib(sum(rss))} MiB${perHost(sum(rss))}, peak ${mib(sum(hwm))} MiB`;
  if (s.nodes.length === 1) return total;
  const each = s.nodes.map((n, i) => `${n.name} RSS ${mib(rss[i])} MiB${perHost(rss[i])}, peak ${mib(hwm[i])} MiB`).join('; ');
  return `${total} summed over ${s.nodes.length} nodes; ${each}`;
}

/** Each node's CPU seconds between two perNodeCpu readings, for a cluster; '' for one server. */
export function perNodeText(s: BenchServers, before: number[], unit: (seconds: number) => string): string {
  if (s.nodes.length === 1) return '';
  const now = perNodeCpu(s);
  return ` (${s.nodes.map((n, i) => `${n.name} ${unit(now[i] - before[i])}`).join(', ')})`;
}
