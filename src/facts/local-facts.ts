// The local host's facts, evaluated on demand and at most once per run, one at a time (the seed:
// "Facts from the local host are always fetched serially"). The facts directories are scanned when
// a fact is first asked for, not when this is made.
import { DEFAULT_FACT_TIMEOUT_MS, evaluateFact, type FactResult } from './evaluate.js';
import { scanFacts, type FactScan } from './scan.js';
import { didYouMean } from '../shared/suggest.js';

export interface LocalFactsOptions {
  dirs: string[];
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export class LocalFacts {
  private scan: FactScan | undefined;
  private scanning: Promise<FactScan> | undefined;
  private readonly results = new Map<string, FactResult>();
  private readonly timeoutMs: number;
  private readonly env: NodeJS.ProcessEnv;

  constructor(readonly options: LocalFactsOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_FACT_TIMEOUT_MS;
    this.env = { ...(options.env ?? process.env), GOVERN_FACTS_PATH: options.dirs.join(':') };
  }

  private scanned(): Promise<FactScan> {
    this.scanning ??= scanFacts(this.options.dirs).then((scan) => (this.scan = scan));
    return this.scanning;
  }

  /** Every name that can be asked for (conflicting names included: asking for one reports the conflict). */
  async names(): Promise<string[]> {
    const scan = await this.scanned();
    return [...new Set([...scan.sources.keys(), ...scan.conflicts.keys()])].sort();
  }

  /** Facts directories or entries that could not be read, or were read once only (links). */
  async problems(): Promise<string[]> {
    return (await this.scanned()).problems;
  }

  /** The result of a fact already loaded, or undefined if it has not been evaluated yet. */
  peek(name: string): FactResult | undefined {
    const known = this.results.get(name);
    if (known || !this.scan) return known;
    const conflict = this.scan.conflicts.get(name);
    if (conflict !== undefined) return { ok: false, error: conflict };
    if (!this.scan.sources.has(name)) {
      for (const [dir, reason] of this.scan.notReadAgain) if (name.startsWith(dir + '/')) return { ok: false, error: reason };
      return { ok: false, error: `no such fact (looked in ${this.options.dirs.join(', ')})${didYouMean(name, this.scan.sources.keys())}` };
    }
    return undefined;
  }

  /** Evaluates the named facts not yet known, serially, in the order given. */
  async load(names: Iterable<string>): Promise<void> {
    const scan = await this.scanned();
    for (const name of names) {
      if (this.peek(name) !== undefined) continue;
      this.results.set(name, await evaluateFact(scan.sources.get(name)!, { timeoutMs: this.timeoutMs, env: this.env }));
    }
  }
}
