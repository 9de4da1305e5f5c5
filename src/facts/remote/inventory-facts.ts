// hostfact from the fleet's inventory (one read per host, no ssh), and, when the user chose it,
// over ssh for a host the inventory does not have (never published, or stopped reporting) or a fact
// it did not publish (a host publishes no secret/ fact).
import type { FactResult } from '../evaluate.js';
import type { InventorySource } from '../inventory.js';
import type { RemoteFactSource } from '../sources.js';

export class InventoryFacts implements RemoteFactSource {
  constructor(
    private readonly inventory: InventorySource,
    private readonly fallback?: RemoteFactSource,
  ) {}

  peek(host: string, name: string): FactResult | undefined {
    const found = this.inventory.peekHost(host);
    if (found === undefined) return undefined;
    let missing: string;
    if (found === null) missing = `${host} is not in the fleet's inventory (it never published its facts, or stopped reporting)`;
    else if ('error' in found) missing = `could not read ${host} from the fleet's inventory: ${found.error}`;
    else if (found.facts[name] !== undefined) return { ok: true, value: found.facts[name] };
    else missing = `${host} published no fact ${name}`;
    return this.fallback ? this.fallback.peek(host, name) : { ok: false, error: missing };
  }

  async load(requests: Map<string, Set<string>>): Promise<void> {
    const unknown = [...requests.keys()].filter((host) => this.inventory.peekHost(host) === undefined);
    if (unknown.length > 0) await this.inventory.loadHosts(unknown);
    if (!this.fallback) return;
    const rest = new Map<string, Set<string>>();
    for (const [host, names] of requests) {
      const left = [...names].filter((name) => this.peek(host, name) === undefined);
      if (left.length > 0) rest.set(host, new Set(left));
    }
    if (rest.size > 0) await this.fallback.load(rest);
  }
}
