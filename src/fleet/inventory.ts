// The fleet's inventory for templates, read from the govern_facts bucket: for `hosts "role=web"`
// the hosts the fact index names (a get each), or every host at once (one pass over the bucket)
// when the index cannot answer, and a get per host for `hostfact`. A host whose facts are older
// than the maximum age (it stopped reporting) is not in it. A failure is kept as the answer, and
// the template that asked reports it with its file and line. A host whose published facts do not
// follow the record's schema (published.ts) is left out, as one that never published: one host's
// bad record does not stop every run that lists the hosts.
import type { NatsConnection } from '@nats-io/transport-node';
import { matchesAll, selectionKey, type Condition, type InventoryAnswer, type InventoryHost, type InventoryHostAnswer, type InventorySource } from '../facts/inventory.js';
import { bindBucket, isMissingBucket } from './buckets.js';
import type { HostFacts } from './host-record.js';
import { withFleet, type FleetState } from './read-fleet.js';
import { selectHosts } from './indexed-selection.js';
import { FACTS_BUCKET, type FleetSettings } from './settings.js';
import { bucketSnapshot } from './snapshot.js';
import { deadlineIn } from './transient.js';
import { within } from './connection.js';
import { checkFacts } from './published.js';

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

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
  /** The `hosts` selections the fact index answered, by selectionKey, while every host is not loaded. */
  private readonly selected = new Map<string, InventoryAnswer>();

  constructor(private readonly o: InventoryOptions) {}

  peek(): InventoryAnswer | undefined {
    return this.all;
  }

  peekHost(name: string): InventoryHostAnswer | undefined {
    if (this.all?.ok) return this.all.hosts.get(name) ?? null;
    return this.single.get(name);
  }

  peekWhere(where: readonly Condition[]): InventoryAnswer | undefined {
    return this.all ?? this.selected.get(selectionKey(where));
  }

  async load(): Promise<void> {
    try {
      this.all = { ok: true, hosts: this.freshHosts(await this.connected((nc) => this.readAll(nc)), []) };
    } catch (e) {
      this.all = this.failed(e);
    }
  }

  /** Each selection through the fact index (indexed-selection.ts, as `govern fleet --where`); one that cannot be loads every host. */
  async loadWhere(selections: readonly (readonly Condition[])[]): Promise<void> {
    if (this.all !== undefined) return;
    try {
      await this.connected(async (nc) => {
        for (const where of selections) {
          const key = selectionKey(where);
          if (this.all !== undefined) return;
          if (this.selected.has(key)) continue;
          const pick = (s: FleetState) => [...this.freshHosts(s.facts, where).values()];
          const r = await selectHosts(nc, where, this.o.settings.timeoutMs, pick, async () => ({ runs: new Map(), facts: await this.readAll(nc) }));
          if (r.indexed) this.selected.set(key, { ok: true, hosts: new Map(r.selected.map((h) => [h.name, h])) });
          else this.all = { ok: true, hosts: this.freshHosts(r.state.facts, []) };
        }
      });
    } catch (e) {
      this.all = this.failed(e);
    }
  }

  private readAll(nc: NatsConnection): Promise<Map<string, unknown>> {
    return bucketSnapshot<unknown>(nc, FACTS_BUCKET, { inboxPrefix: this.o.inboxPrefix, deadline: deadlineIn(this.o.settings.timeoutMs) });
  }

  /** The hosts whose facts are valid, recent enough, and match. */
  private freshHosts(values: Map<string, unknown>, where: readonly Condition[]): Map<string, InventoryHost> {
    const hosts = new Map<string, InventoryHost>();
    for (const [key, value] of values) {
      const facts = this.fresh(key, value);
      if (facts !== undefined && matchesAll(facts.facts, where)) hosts.set(key, { name: key, facts: facts.facts });
    }
    return hosts;
  }

  private failed(e: unknown): InventoryAnswer {
    return { ok: false, error: `the fleet's inventory at ${this.o.settings.url}: ${(e as Error).message}` };
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
            const value = e && e.operation === 'PUT' ? this.fresh(name, parsed(e.string())) : undefined;
            this.single.set(name, value ? { name, facts: value.facts } : null);
          }),
        );
      });
    } catch (e) {
      for (const name of wanted) if (!this.single.has(name)) this.single.set(name, { error: (e as Error).message });
    }
  }

  /** The host's facts when they are valid and recent enough; else undefined. */
  private fresh(key: string, value: unknown): HostFacts | undefined {
    const now = (this.o.now ?? Date.now)();
    const checked = checkFacts(key, value, now);
    return checked.ok && Date.parse(checked.value.at) >= now - this.o.maxAgeMs ? checked.value : undefined;
  }

  private connected<T>(use: (nc: NatsConnection) => Promise<T>): Promise<T> {
    const s = this.o.settings;
    return withFleet(s, 'govern inventory', (nc) => within(s.timeoutMs, 'reading the inventory', use(nc)), this.o.inboxPrefix);
  }
}
