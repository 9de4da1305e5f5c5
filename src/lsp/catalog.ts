// What an editor offers from the tree's surroundings: every runner of the runners directories with
// its description (asked as planning asks, through the same kept answers, so a runner is asked once
// until it changes), the fact names of the facts directories (scanned, never evaluated), and the
// documentation page of a built-in runner.
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN_ROOT } from '../config/paths.js';
import { DescriptionCache } from '../describe/cache.js';
import { describeRunner } from '../describe/describe-runner.js';
import type { PlanSettings } from '../plan/settings.js';
import type { KeySpec, RunnerDescription } from '../shared/description.js';
import { findExecutable } from '../shared/find-program.js';
import { trustedProgram } from '../shared/trust.js';
import { ORDERING_KEYS, NOOP_KEY, SENSITIVE_KEY, TAGS_KEY, TEMPLATE_KEY, VARS_KEY } from '../state/resource.js';

export interface RunnerEntry {
  name: string;
  executable: string;
  description?: RunnerDescription;
}

/** The keys of every resource, which govern itself reads (README, "State files"). */
export const CORE_KEYS: Readonly<Record<string, KeySpec>> = {
  [ORDERING_KEYS[0]]: { type: 'list', help: 'RREFs (runner:name) of the resources this one is applied before' },
  [ORDERING_KEYS[1]]: { type: 'list', help: 'RREFs (runner:name) of the resources this one is applied after' },
  [ORDERING_KEYS[2]]: { type: 'list', help: 'RREFs of the resources told when this one changes (runner:name or runner:name:signal)' },
  [ORDERING_KEYS[3]]: { type: 'list', help: 'RREFs of the resources whose changes tell this one (runner:name or runner:name:signal)' },
  [TAGS_KEY]: { type: 'list', help: 'tags for --tags and --skip-tags' },
  [SENSITIVE_KEY]: { type: 'boolean', default: false, help: 'hide every value of this resource wherever govern would show it' },
  [NOOP_KEY]: { type: 'boolean', default: false, help: 'only report what it would change, in every run' },
  [TEMPLATE_KEY]: { type: 'string', help: 'a file template (templates.d, or a path) rendered into contents while planning' },
  [VARS_KEY]: { type: 'map', help: "the template's variables" },
};

/** Bounds what a runners directory given by mistake (/usr/bin) costs. */
const MAX_RUNNERS = 500;

export class Catalog {
  private runners?: Promise<Map<string, RunnerEntry>>;
  private facts?: Promise<string[]>;

  constructor(private readonly settings: PlanSettings) {}

  /** Every runner by name, the first directory's winning, each described (or not, when it does not describe itself). */
  runnerMap(): Promise<Map<string, RunnerEntry>> {
    this.runners ??= this.describeAll();
    return this.runners;
  }

  async runner(name: string): Promise<RunnerEntry | undefined> {
    return (await this.runnerMap()).get(name);
  }

  factNames(): Promise<string[]> {
    this.facts ??= this.settings.facts.names().catch(() => []);
    return this.facts;
  }

  private async describeAll(): Promise<Map<string, RunnerEntry>> {
    const dirs = this.settings.paths.runners;
    const names = new Set<string>();
    for (const dir of dirs) {
      let entries: string[] = [];
      try {
        entries = fs.readdirSync(dir).filter((e) => !e.startsWith('.'));
      } catch {
        continue;
      }
      for (const e of entries) if (names.size < MAX_RUNNERS) names.add(e);
    }
    const cache = new DescriptionCache(this.settings.cache.area('runner'));
    const found = new Map<string, RunnerEntry>();
    await Promise.all(
      [...names].sort().map(async (name) => {
        const executable = findExecutable(name, dirs);
        const trusted = executable === undefined ? undefined : trustedProgram(executable);
        if (!trusted || !('path' in trusted)) return;
        const answer = await cache.answer(trusted.path, (file) => describeRunner(file, process.env)).catch(() => undefined);
        found.set(name, { name, executable: trusted.path, ...(answer?.kind === 'described' ? { description: answer.description } : {}) });
      }),
    );
    return new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}

/** The documentation page of a runner shipped with govern (docs/NAME.md, in the checkout or installed). */
export function runnerDocPage(name: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return undefined;
  const candidates = [path.join(GOVERN_ROOT, 'docs'), path.resolve(GOVERN_ROOT, '..', '..', 'share', 'doc', 'govern', 'docs')];
  for (const dir of candidates) {
    const page = path.join(dir, `${name}.md`);
    if (fs.existsSync(page)) return page;
  }
  return undefined;
}

/** A key's type and allowed values, as one line for completion's detail and hover. */
export function keySummary(spec: KeySpec): string {
  const values = spec.values && spec.values.length > 0 ? `: ${spec.values.join(' | ')}` : '';
  const def = spec.default !== undefined ? `, default ${JSON.stringify(spec.default)}` : '';
  return `${spec.required ? 'required ' : ''}${spec.type}${values}${def}`;
}
