// The fleet's inventory for templates, read from the govern_facts bucket: every host at once for
// `hosts` (one pass over the bucket), or a get per host for `hostfact`. A host whose facts are older
// than the maximum age (it stopped reporting) is not in it. A failure is kept as the answer, and
// the template that asked reports it with its file and line.
import type { NatsConnection } from '@nats-io/transport-node';
import type { InventoryAnswer, InventoryHost, InventoryHostAnswer, InventorySource } from '../facts/inventory.js';
import { bindBucket, isMissingBucket } from './buckets.js';
import type { HostFacts } from './host-record.js';
import { withFleet } from './read-fleet.js';
import { FACTS_BUCKET, type FleetSettings } from './settings.js';
import { bucketSnapshot } from './snapshot.js';
import { within } from './connection.js';

export interface InventoryOptions {
  settings: FleetSettings;
  /** Hosts whose facts are older than this are left out. */
  maxAgeMs: number;
  /** Replies under this host's own inbox prefix (publish.ts), as its permissions allow. */
  inboxPrefix?: string;
  now?: () => number;
}

export class FleetInventory implements InventorySource {
  private all: InventoryAnswer | undefined;
  private readonly single = new Map<string, InventoryHostAnswer>();

  constructor(private readonly o: InventoryOptions) {}

  peek(): InventoryAnswer | undefined {
    return this.all;
  }

  peekHost(name: string): InventoryHostAnswer | undefined {
    if (this.all?.ok) return this.all.hosts.get(name) ?? null;
    return this.single.get(name);
  }

  async load(): Promise<void> {
    try {
      const values = await this.connected((nc) => bucketSnapshot<HostFacts>(nc, FACTS_BUCKET, this.o.inboxPrefix));
      const hosts = new Map<string, InventoryHost>();
      for (const [key, value] of values) if (this.fresh(value)) hosts.set(key, { name: key, facts: value.facts });
      this.all = { ok: true, hosts };
    } catch (e) {
      this.all = { ok: false, error: `the fleet's inventory at ${this.o.settings.url}: ${(e as Error).message}` };
    }
  }

  async loadHosts(names: Iterable<string>): Promise<void> {
    const wanted = [...names];
    try {
      await this.connected(async (nc) => {
        const kv = await bindBucket(nc, FACTS_BUCKET);
        await Promise.all(
          wanted.map(async (name) => {
            const e = await kv.get(name).catch((err: Error) => {
              if (isMissingBucket(err)) return null;
              throw err;
            });
            const value = e && e.operation === 'PUT' ? e.json<HostFacts>() : undefined;
            this.single.set(name, value && this.fresh(value) ? { name, facts: value.facts } : null);
          }),
        );
      });
    } catch (e) {
      for (const name of wanted) if (!this.single.has(name)) this.single.set(name, { error: (e as Error).message });
    }
  }

  private fresh(value: HostFacts): boolean {
    const at = Date.parse(value.at);
    return typeof value.facts === 'object' && value.facts !== null && !(at < (this.o.now ?? Date.now)() - this.o.maxAgeMs);
  }

  private connected<T>(use: (nc: NatsConnection) => Promise<T>): Promise<T> {
    const s = this.o.settings;
    return withFleet(s, 'govern inventory', (nc) => within(s.timeoutMs, 'reading the inventory', use(nc)), this.o.inboxPrefix);
  }
}
