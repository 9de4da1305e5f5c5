// Looking a key up in the hierarchy: the first level whose file has it answers, unless
// hierarchy.hcl merges the key, when every level that has it contributes (merge.ts). Each lookup
// can tell its whole search, level by level, for `govern data --explain` (explain.ts).
import type { AttrValue } from '../shared/protocol.js';
import type { DataFile } from './source.js';
import type { Hierarchy } from './hierarchy.js';
import { isDataMap, mergeValues, MergeError, unmergeable, type MergeStrategy } from './merge.js';
import type { DataFound, DataOrigin, DataSource } from './source.js';

/** One level as loaded: its file, if it has one. */
export interface LoadedLevel {
  name: string;
  data?: DataFile;
}

/** What one level said about a key. */
export interface LevelAnswer {
  level: string;
  /** The level's file; undefined when the level has none (skipped). */
  file?: string;
  found: boolean;
  value?: AttrValue;
  line?: number;
}

export interface Explanation {
  key: string;
  strategy: MergeStrategy;
  steps: LevelAnswer[];
  result?: DataFound;
}

/** What a template is given for a value as written: src/secrets/ decrypts ENC[...] strings. */
export type RevealValue = (key: string, found: DataFound) => DataFound;

export class TreeData implements DataSource {
  readonly levels: readonly string[];
  private readonly answers = new Map<string, DataFound | undefined>();
  /** The values read that reveal changed (decrypted), as written: what `govern diff` compares. */
  private readonly revealed = new Map<string, DataFound>();
  private reveal?: RevealValue;

  constructor(
    private readonly hierarchy: Hierarchy,
    private readonly loaded: readonly LoadedLevel[],
  ) {
    this.levels = loaded.map((level) => level.name);
  }

  lookup(key: string): DataFound | undefined {
    if (!this.answers.has(key)) {
      const found = this.explain(key).result;
      const given = found && this.reveal ? this.reveal(key, found) : found;
      if (found && given !== found) this.revealed.set(key, found);
      this.answers.set(key, given);
    }
    return this.answers.get(key);
  }

  /** From now on, lookups give values through reveal (planning decrypts; `govern data` shows them as written). */
  revealValues(reveal: RevealValue): void {
    this.reveal = reveal;
  }

  /** The keys read whose values reveal changed, with the values as written, in the order read. */
  revealedValues(): [string, DataFound][] {
    return [...this.revealed];
  }

  strategy(key: string): MergeStrategy {
    return this.hierarchy.merge.get(key)?.strategy ?? 'first';
  }

  /** The search for a key, level by level; throws MergeError when a level's value cannot be merged. */
  explain(key: string): Explanation {
    const strategy = this.strategy(key);
    const steps: LevelAnswer[] = [];
    const hits: { value: AttrValue; origin: DataOrigin }[] = [];
    for (const level of this.loaded) {
      if (!level.data) {
        steps.push({ level: level.name, found: false });
        continue;
      }
      const found = findKey(level.data, key);
      const line = found && keyLine(level.data, key, found.top);
      steps.push({ level: level.name, file: level.data.file, found: found !== undefined, ...(found ? { value: found.value, line } : {}) });
      if (!found) continue;
      const why = unmergeable(strategy, found.value);
      if (why) throw new MergeError(`data "${key}" at level "${level.name}" (${level.data.file}${line ? `:${line}` : ''}): ${why}`);
      hits.push({ value: found.value, origin: { level: level.name, file: level.data.file, ...(line ? { line } : {}) } });
    }
    // Every level is asked (explain lists them all); with `first`, the first answer is the value.
    const used = strategy === 'first' ? hits.slice(0, 1) : hits;
    const result = used.length === 0 ? undefined : { value: mergeValues(strategy, used.map((h) => h.value)), origins: used.map((h) => h.origin) };
    return { key, strategy, steps, result };
  }

  /** Every key path a file of the hierarchy sets at its top level, in level order. */
  topKeys(): string[] {
    return [...new Set(this.loaded.flatMap((level) => Object.keys(level.data?.values ?? {})))];
  }
}

/** The line of a key path found in a file: the nested key's own line where the file tells it. */
export function keyLine(data: DataFile, key: string, top: string): number | undefined {
  return data.keyLines?.get(key) ?? data.lines.get(top);
}

/** A key path in a file: the top-level key written whole (`"nginx_site/port"` in JSON), else dug into nested maps. */
export function findKey(data: DataFile, key: string): { value: AttrValue; top: string } | undefined {
  if (Object.hasOwn(data.values, key)) return { value: data.values[key], top: key };
  const [top, ...rest] = key.split('/');
  if (!Object.hasOwn(data.values, top)) return undefined;
  let value: AttrValue = data.values[top];
  for (const segment of rest) {
    if (!isDataMap(value) || !Object.hasOwn(value, segment)) return undefined;
    value = value[segment];
  }
  return { value, top };
}
