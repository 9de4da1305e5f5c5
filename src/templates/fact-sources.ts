// What the fact helpers read from while a template renders. Helpers are synchronous, so a render
// pass records the facts it needs but does not have yet (PendingFacts); the caller fetches them and
// renders again (render.ts).
import type { DataSource } from '../data/source.js';
import type { LocalFactSource, RemoteFactSource } from '../facts/sources.js';
import { selectionKey, type Condition, type InventorySource } from '../facts/inventory.js';

/** What templates read: the host's facts, other hosts' facts, and the tree's data (docs/data.md). */
export interface FactSources {
  local: LocalFactSource;
  remote?: RemoteFactSource;
  /** Undefined for a tree without hierarchy.hcl, and while hierarchy.hcl itself renders. */
  data?: DataSource;
  /** The hosts of the fleet, for the `hosts` helper. */
  inventory?: InventorySource;
}

export class PendingFacts {
  readonly local = new Set<string>();
  readonly remote = new Map<string, Set<string>>();
  /** The selections of `hosts` calls that need the inventory, by selectionKey. */
  readonly selections = new Map<string, readonly Condition[]>();

  addLocal(name: string): void {
    this.local.add(name);
  }

  addRemote(host: string, name: string): void {
    const names = this.remote.get(host) ?? new Set<string>();
    names.add(name);
    this.remote.set(host, names);
  }

  addSelection(where: readonly Condition[]): void {
    this.selections.set(selectionKey(where), where);
  }

  get empty(): boolean {
    return this.local.size === 0 && this.remote.size === 0 && this.selections.size === 0;
  }
}
