// Planning's reading of a state file kept between runs (bench/README.md, "Round four: a planning
// cache"): its resources and module instances as parsed, one entry a file's path and the code that
// parsed it (govern's version and the identity of the running file), used while the SHA-256 of its
// rendered text and the lines that text came from are the same. Each resource also keeps the hash of the runner description it was
// checked against: while that description is the same, its keys are not checked again. A run that
// changes nothing then neither parses its state files nor checks their keys. The entries are the
// runner cache's (`plan-HASH.json`, state/runner-cache.ts), under its rules: a private directory,
// entries only the user running govern can have written. A file that used a sensitive fact or the
// tree's data (which may be a decrypted secret), or that had a problem, is never kept.
import crypto from 'node:crypto';
import { codeIdentity } from '../config/code-identity.js';
import type { RunnerDescription } from '../shared/description.js';
import type { Location } from '../shared/errors.js';
import type { InstanceDecl } from './modules/declarations.js';
import { allNumbersFinite } from './finite.js';
import type { Resource } from './resource.js';
import type { RunnerCache } from './runner-cache.js';

const FORMAT = 'govern-plan-2';

/** What a state file parsed to, its resources numbered from 0, each with the description hash it was checked against. */
interface Entry {
  /** The SHA-256 of the rendered text and its source lines. */
  digest: string;
  resources: Resource[];
  instances: InstanceDecl[];
  checked: (string | null)[];
}

/** What parseFiles reads of a rendered state file. */
export interface KeyedText {
  file: string;
  rendered: string;
  sourceLines: (number | undefined)[];
}

function descriptionHash(description: RunnerDescription): string {
  return crypto.createHash('sha256').update(JSON.stringify(description)).digest('hex');
}

export class ParseCache {
  private readonly code = codeIdentity();
  /** Resources read from an entry: the description hash each was checked against. */
  private readonly checkedAgainst = new WeakMap<Resource, string>();
  /** Files parsed this run, to keep once the graph is built: their resources as parsed, before planning changes them. */
  private readonly pending: { key: string; entry: Entry; live: Resource[] }[] = [];
  private readonly hashes = new Map<RunnerDescription, string>();
  /** Resources parsed this run whose keys passed: the description hash they passed. */
  private readonly passedAgainst = new WeakMap<Resource, string>();

  constructor(private readonly store: RunnerCache) {}

  /** One entry a file (and build of govern): a file whose text changes every run (a fact of the time) replaces its entry, never adds one. */
  private key(text: KeyedText): string {
    return `${FORMAT}\0${this.code}\0${text.file}`;
  }

  private digest(text: KeyedText): string {
    return crypto.createHash('sha256').update(JSON.stringify(text.sourceLines)).update('\0').update(text.rendered).digest('hex');
  }

  /** The file's resources (numbered from firstIndex) and instances as kept, or undefined. */
  read(text: KeyedText, firstIndex: number): { resources: Resource[]; instances: InstanceDecl[] } | undefined {
    const entry = this.store.get(this.key(text)) as unknown as Entry | undefined;
    if (!entry || entry.digest !== this.digest(text) || !Array.isArray(entry.resources) || !Array.isArray(entry.instances) || !Array.isArray(entry.checked) || entry.checked.length !== entry.resources.length) return undefined;
    entry.resources.forEach((r, i) => {
      unpack(r, text.file);
      r.index = firstIndex + i;
      const hash = entry.checked[i];
      if (typeof hash === 'string') this.checkedAgainst.set(r, hash);
    });
    return { resources: entry.resources, instances: entry.instances };
  }

  /** A file parsed without problems: kept when the graph is built (commit). */
  parsed(text: KeyedText, resources: Resource[], instances: InstanceDecl[], firstIndex: number): void {
    // A number JSON cannot carry (Infinity) or a key it cannot carry back as it was (`__proto__`):
    // the file is parsed every time. The copy goes through JSON, which the entry is written as: a
    // third of structuredClone's time for 10,000 resources, and the same entry.
    if (!allNumbersFinite({ resources, instances })) return;
    const json = JSON.stringify({ resources, instances });
    if (json.includes('"__proto__"')) return;
    const copy = JSON.parse(json) as { resources: Resource[]; instances: InstanceDecl[] };
    copy.resources.forEach((r) => {
      r.index -= firstIndex;
      pack(r, text.file);
    });
    this.pending.push({ key: this.key(text), entry: { digest: this.digest(text), ...copy, checked: resources.map(() => null) }, live: resources });
  }

  /** Whether the resource's keys were checked against this description in an earlier run. */
  checkedBefore(r: Resource, description: RunnerDescription): boolean {
    const hash = this.checkedAgainst.get(r);
    return hash !== undefined && hash === this.hashOf(description);
  }

  /** The resource's keys passed this description (buildGraph's `passed`). */
  passed(r: Resource, description: RunnerDescription): void {
    this.passedAgainst.set(r, this.hashOf(description));
  }

  /**
   * After a graph was built (or, for govern check, its resources checked): each file parsed this run
   * is kept, each resource with the description its keys passed, or none (checked again next time).
   * One whose contents came from a template (`template`) is checked every run: the template's file
   * can change without its state file.
   */
  commit(): void {
    for (const { key, entry, live } of this.pending) {
      entry.checked = live.map((r, i) => (entry.resources[i]!.template ? null : (this.passedAgainst.get(r) ?? null)));
      this.store.put(key, entry as unknown as Record<string, unknown>);
    }
    this.pending.length = 0;
  }

  private hashOf(description: RunnerDescription): string {
    let hash = this.hashes.get(description);
    if (hash === undefined) this.hashes.set(description, (hash = descriptionHash(description)));
    return hash;
  }
}

// An entry names its state file once: each resource's file and locations (its block's, each key's)
// in it are written as 0, which no path is, and read back as the one path. Entries are a third
// smaller, and the resources read from them share one string for the path instead of a copy each.
type Packed = Omit<Location, 'file'> & { file?: string | 0 };

function pack(r: Resource, file: string): void {
  const packed = (at: Location): Location => (at.file === file ? ({ ...at, file: 0 } as Packed as Location) : at);
  if (r.file === file) (r as { file: string | 0 }).file = 0;
  r.at = packed(r.at);
  if (r.keyAt) for (const key of Object.keys(r.keyAt)) r.keyAt[key] = packed(r.keyAt[key]);
}

function unpack(r: Resource, file: string): void {
  const unpacked = (at: Location): void => {
    if ((at as Packed).file === 0) at.file = file;
  };
  if ((r as { file: string | 0 }).file === 0) r.file = file;
  unpacked(r.at);
  if (r.keyAt) for (const key of Object.keys(r.keyAt)) unpacked(r.keyAt[key]);
}
