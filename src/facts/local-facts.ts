// The local host's facts, evaluated on demand and at most once per run, one at a time (the seed:
// "Facts from the local host are always fetched serially").
import { DEFAULT_FACT_TIMEOUT_MS, evaluateFact, type FactResult } from './evaluate.js';
import { scanFacts, type FactScan } from './scan.js';

export interface LocalFactsOptions {
  dirs: string[];
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export class LocalFacts {
  private readonly scan: FactScan;
  private readonly results = new Map<string, FactResult>();
  private readonly timeoutMs: number;
  private readonly env: NodeJS.ProcessEnv;

  constructor(readonly options: LocalFactsOptions) {
    this.scan = scanFacts(options.dirs);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_FACT_TIMEOUT_MS;
    this.env = { ...(options.env ?? process.env), GOVERN_FACTS_PATH: options.dirs.join(':') };
  }

  /** Every name that can be asked for (conflicting names included: asking for one reports the conflict). */
  names(): string[] {
    return [...new Set([...this.scan.sources.keys(), ...this.scan.conflicts.keys()])].sort();
  }

  problems(): string[] {
    return this.scan.problems;
  }

  /** The result of a fact already loaded, or undefined if it has not been evaluated yet. */
  peek(name: string): FactResult | undefined {
    const known = this.results.get(name);
    if (known) return known;
    const conflict = this.scan.conflicts.get(name);
    if (conflict !== undefined) return { ok: false, error: conflict };
    if (!this.scan.sources.has(name)) return { ok: false, error: `no such fact (looked in ${this.options.dirs.join(', ')})` };
    return undefined;
  }

  /** Evaluates the named facts not yet known, serially, in the order given. */
  async load(names: Iterable<string>): Promise<void> {
    for (const name of names) {
      if (this.peek(name) !== undefined) continue;
      const source = this.scan.sources.get(name)!;
      this.results.set(name, await evaluateFact(source, { timeoutMs: this.timeoutMs, env: this.env }));
    }
  }
}
