// Facts read from `govern facts --json` snapshots instead of evaluated on the host, so that a tree
// can be planned for a host without the host (`govern plan`, `govern diff`). A snapshot file holds
// one host's facts; a directory holds one snapshot per host, named HOST.json; the facts a host
// published to the fleet's inventory are a snapshot too. Planning from snapshots evaluates nothing:
// a fact missing from a snapshot is an error, except a `secret/` fact, which snapshots usually leave
// out (a host publishes none) and which stands for a value that is never shown anyway.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import { isSensitiveFact, SENSITIVE } from '../shared/sensitive.js';
import { didYouMean } from '../shared/suggest.js';
import type { FactResult } from './evaluate.js';

export interface Snapshot {
  host: string;
  /** Where the facts came from, as shown: the snapshot file, or `the fleet's inventory at URL`. */
  source: string;
  /** The snapshot file, when the facts came from one: `hostfact` reads its neighbours. */
  file?: string;
  values: Map<string, string>;
}

const SNAPSHOT_SUFFIX = '.json';

/** The host a snapshot file is for: its name without `.json`. */
export function snapshotHost(file: string): string {
  const base = path.basename(file);
  return base.endsWith(SNAPSHOT_SUFFIX) ? base.slice(0, -SNAPSHOT_SUFFIX.length) : base;
}

/** Reads one snapshot: a JSON object of fact name to string value. */
export function readSnapshot(file: string, host = snapshotHost(file)): Snapshot {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read the facts snapshot ${file}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file}: not a facts snapshot (the output of govern facts --json): ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UserError(`${file}: a facts snapshot is a JSON object of fact name to value`);
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new UserError(`${file}: fact ${name}: the value is not a string`);
    values.set(name, value);
  }
  return { host, source: file, file, values };
}

/** The snapshot files of a directory (HOST.json, sorted by host), or the one file given. */
export function snapshotFiles(given: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(given);
  } catch (e) {
    throw new UserError(`cannot read the facts snapshots ${given}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`);
  }
  if (!stat.isDirectory()) return [given];
  const files = fs
    .readdirSync(given)
    .filter((name) => name.endsWith(SNAPSHOT_SUFFIX) && !name.startsWith('.'))
    .sort()
    .map((name) => path.join(given, name));
  if (files.length === 0) throw new UserError(`${given}: no facts snapshot (HOST.json) in this directory`);
  return files;
}

function lookup(snapshot: Snapshot, name: string): FactResult {
  const value = snapshot.values.get(name);
  if (value !== undefined) return { ok: true, value };
  if (isSensitiveFact(name)) return { ok: true, value: SENSITIVE };
  return { ok: false, error: `no such fact in ${snapshot.file !== undefined ? `the snapshot ${snapshot.file}` : snapshot.source}${didYouMean(name, snapshot.values.keys())}` };
}

/** The host's own facts (`fact`), from its snapshot. */
export class SnapshotFacts {
  constructor(readonly snapshot: Snapshot) {}

  peek(name: string): FactResult {
    return lookup(this.snapshot, name);
  }

  async load(_names: Iterable<string>): Promise<void> {}
}

/** Other hosts' facts (`hostfact`), from their snapshots in the same directory; never over ssh. */
export class SnapshotHostFacts {
  private readonly snapshots = new Map<string, Snapshot | undefined>();

  constructor(private readonly dir: string | undefined) {}

  peek(host: string, name: string): FactResult {
    const snapshot = this.snapshotOf(host);
    if (!snapshot) return { ok: false, error: `no facts snapshot for host ${host}${this.dir ? ` in ${this.dir}` : ''}` };
    return lookup(snapshot, name);
  }

  async load(_requests: Map<string, Set<string>>): Promise<void> {}

  private snapshotOf(host: string): Snapshot | undefined {
    if (!this.snapshots.has(host)) {
      const file = this.dir && !host.includes('/') ? path.join(this.dir, host + SNAPSHOT_SUFFIX) : undefined;
      this.snapshots.set(host, file && fs.existsSync(file) ? readSnapshot(file, host) : undefined);
    }
    return this.snapshots.get(host);
  }
}
