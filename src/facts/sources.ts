// The two sources of facts a render reads, as interfaces the fact code implements (local-facts.ts,
// remote/): here, below templates/, so that the facts room never imports the templates that use it.
import type { FactResult } from './evaluate.js';

export interface LocalFactSource {
  /** undefined: not evaluated yet. */
  peek(name: string): FactResult | undefined;
  load(names: Iterable<string>): Promise<void>;
}

export interface RemoteFactSource {
  /** undefined: not fetched yet. */
  peek(host: string, name: string): FactResult | undefined;
  /** Fetches, for each host, the facts named. */
  load(requests: Map<string, Set<string>>): Promise<void>;
}
