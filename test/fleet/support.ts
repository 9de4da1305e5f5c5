// What the fleet tests share: a host (a state tree, its facts, its var directory) that runs govern
// against a real nats-server, and reading the buckets back with the client govern uses.
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
