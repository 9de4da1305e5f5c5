// Where the fleet's NATS server is and who this host is to it: resolved from the options once
// (src/cli/fleet-options.ts) and passed to every fleet operation as plain data.
export interface FleetSettings {
  /** nats://host:4222 or tls://host:4222; several, comma-separated, for a cluster. */
  url: string;
  /** A NATS credentials file (a user JWT and its nkey seed), or a file holding just an nkey seed. */
  credsFile?: string;
  /** The CA that signed the server's certificate, for TLS. */
  caFile?: string;
  /** Every NATS operation of a command together must end within this (publishing: the run waits no longer). */
  timeoutMs: number;
  /** Replicas of a bucket this command makes (1..5); undefined: 3 on a cluster, 1 on one server. */
  replicas?: number;
}

export const MAX_REPLICAS = 5;

export const DEFAULT_FLEET_TIMEOUT_MS = 5_000;

export const RUNS_BUCKET = 'govern_runs';
/**
 * Runs kept per host in govern_runs, the newest last: `govern fleet history` reads them. The KV's own
 * history rather than a stream of its own (docs/fleet.md, "History"): no second publish and no new
 * permission for hosts; the store is bounded by hosts times this times a record (about 0.5 kB).
 */
export const RUNS_HISTORY = 10;
export const FACTS_BUCKET = 'govern_facts';
/** The publishers' index of the facts `--where` selects on (fact-index.ts). */
export const INDEX_BUCKET = 'govern_index';
/** One key per host that keeps its index entries, listing them (fact-index.ts): counted against govern_facts' keys. */
export const INDEXED_BUCKET = 'govern_indexed';
