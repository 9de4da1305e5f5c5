// What the fleet tests share: a host (a state tree, its facts, its var directory) that runs govern
// against a real nats-server, and reading the buckets back with the client govern uses.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { govern } from '../support/cli.js';
import { tree, type Tree } from '../support/state-tree.js';
import { writeFile } from '../support/tmp.js';

export interface FleetHost {
  name: string;
  tree: Tree;
  varDir: string;
  run(extra?: string[], env?: NodeJS.ProcessEnv): ReturnType<typeof govern>;
}

/** A host named `name` with facts (role=web...) whose state tree is `states` (a.hcl by default: one change). */
export function fleetHost(name: string, url: string, facts: Record<string, string> = {}, states?: Record<string, string>): FleetHost {
  const t = tree(states ?? { 'a.hcl': 'pkg "a" {\n  changed = true\n}\npkg "b" {}\n' });
  for (const [fact, value] of Object.entries({ fqdn: name, ...facts })) writeFile(path.join(t.facts, fact), value);
  const varDir = path.join(t.dir, 'var');
  return { name, tree: t, varDir, run: (extra = [], env = {}) => t.run(['--var-dir', varDir, '--fleet-url', url, ...extra], env) };
}

/** The value under `key` in `bucket`, as JSON; undefined when there is none. */
export async function readKey<T>(url: string, bucket: string, key: string): Promise<T | undefined> {
  const nc = await connect({ servers: url });
  try {
    const e = await (await new Kvm(nc).open(bucket)).get(key).catch((err: Error) => {
      if (/stream not found/.test(err.message)) return null;
      throw err;
    });
    return e && e.operation === 'PUT' ? e.json<T>() : undefined;
  } finally {
    await nc.close();
  }
}

export function fleet(url: string, extra: string[] = []) {
  return govern(['fleet', '--fleet-url', url, ...extra]);
}

/** A host's run as govern publishes it, for hosts simulated by putting values directly. */
export function simulatedRun(host: string, o: { success?: boolean; commit?: string; endedAgoMs?: number; changed?: number; failed?: number } = {}): object {
  const ended = Date.now() - (o.endedAgoMs ?? 60_000);
  const failed = o.failed ?? (o.success === false ? 1 : 0);
  return {
    format: 1,
    host,
    govern_version: '0.1.0',
    started_at: new Date(ended - 2_000).toISOString(),
    ended_at: new Date(ended).toISOString(),
    state: '/etc/govern/states',
    ...(o.commit ? { commit: o.commit } : {}),
    success: o.success ?? true,
    summary: { resources: 10, changed: o.changed ?? 0, unchanged: 10 - failed, failed, skipped: 0, excluded: 0, notifications_sent: 0, notifications_noop: 0, notifications_failed: 0, notifications_skipped: 0, duration_ms: 2_000 },
    errors: [],
    failed: failed > 0 ? [{ ref: 'pkg:nginx', message: 'failed' }] : [],
  };
}

/** Puts simulated hosts' runs and facts, as the hosts themselves would. */
export async function putHosts(url: string, hosts: { name: string; facts: Record<string, string>; run?: object }[]): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const kvm = new Kvm(nc);
    const runs = await kvm.create('govern_runs', { history: 1 });
    const facts = await kvm.create('govern_facts', { history: 1 });
    for (const h of hosts) {
      if (h.run) await runs.put(h.name, JSON.stringify(h.run));
      await facts.put(h.name, JSON.stringify({ format: 1, host: h.name, at: new Date().toISOString(), facts: { fqdn: h.name, ...h.facts } }));
    }
  } finally {
    await nc.close();
  }
}

/** Puts a value as it is (what a host with its own client could publish under its key). */
export async function putRaw(url: string, bucket: string, key: string, value: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    await (await new Kvm(nc).create(bucket, { history: 1 })).put(key, value);
  } finally {
    await nc.close();
  }
}

/** A child's stderr as it comes: all of it so far, and a promise for when it has said `text`. */
export function stderrOf(child: ChildProcess): { text(): string; said(text: string): Promise<void> } {
  let stderr = '';
  const waiting: { text: string; resolve(): void }[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
    for (const w of waiting.filter((w) => stderr.includes(w.text))) w.resolve();
  });
  return { text: () => stderr, said: (text) => new Promise<void>((resolve) => (stderr.includes(text) ? resolve() : waiting.push({ text, resolve }))) };
}
