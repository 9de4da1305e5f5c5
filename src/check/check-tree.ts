// `govern check`: every problem of a tree at once, without the host. Planning's own steps run for
// each facts snapshot given (or once, with placeholder facts) and go on past a phase's problems:
// the resources that parsed are still checked against their runners' descriptions, references
// and cycles, so one file's mistake hides no other file's.
import path from 'node:path';
import { treeRoot } from '../config/paths.js';
import { snapshotSettings } from '../plan/hosts.js';
import { readResources } from '../plan/plan-tree.js';
import type { PlanSettings } from '../plan/settings.js';
import { buildGraph } from '../describe/build-graph.js';
import type { Snapshot } from '../facts/snapshot.js';
import { fmtFiles } from '../fmt/files.js';
import { misplacedEncrypted } from '../secrets/misplaced.js';
import { PlanningSecrets } from '../shared/planning-secrets.js';
import { UserError, type Problem } from '../shared/errors.js';
import { renderResourceTemplates } from '../state/resource-templates.js';
import type { Resource } from '../state/resource.js';
import { noCache, type RunnerCache } from '../state/runner-cache.js';
import { PhaseClock } from '../report/timing.js';
import { Locator, type CheckProblem, type CheckRule } from './locate.js';
import { neededFacts } from './needed-facts.js';
import { PlaceholderFacts, PlaceholderHostFacts } from './placeholders.js';

export interface CheckReport {
  /** The tree's directory, which the problems' files are relative to. */
  root: string;
  /** Every file of the tree checked (state files, modules, hierarchy.hcl, data files), relative. */
  files: string[];
  problems: CheckProblem[];
  /** The hosts checked for, from their snapshots; undefined: placeholder facts. */
  hosts?: string[];
  /** Without snapshots: the facts each file reads (`NAME`, `HOST:NAME`), for the files that read any. */
  needsFacts?: Record<string, string[]>;
}

export interface CheckOptions {
  /** Given the resources each planning read (`govern lsp` goes from an RREF to its block). */
  seen?: (resources: Resource[]) => void;
  /** Without snapshots, tell which facts each file reads (default true; an editor has no use for it). */
  needsFacts?: boolean;
  /**
   * Where the state files parsed, and whose resources' keys passed, are kept from one check to the
   * next (state/parse-cache.ts): `govern lsp` keeps them in memory, so that a change re-reads the
   * changed file alone. References, cycles, modules and paths are checked over the whole tree each
   * time. Default: none kept (a check in CI runs once).
   */
  parses?: RunnerCache;
}

export async function checkTree(settings: PlanSettings, snapshots: Snapshot[] | undefined, options: CheckOptions = {}): Promise<CheckReport> {
  const { seen } = options;
  const parses = options.parses ?? noCache;
  const root = path.resolve(treeRoot(settings.target) ?? path.dirname(settings.target));
  const locator = new Locator(root);
  const files = fmtFiles([settings.target]).map((f) => path.relative(root, path.resolve(f.file)));
  const found = new Map<string, CheckProblem>();
  const add = (host: string | undefined, rule: CheckRule, problems: Problem[]) => {
    for (const p of problems) {
      const located = locator.locate(p, rule);
      const key = JSON.stringify([located.file, located.line, located.column, located.message]);
      const known = found.get(key);
      if (known && host !== undefined) known.hosts = [...(known.hosts ?? []), host];
      else if (!known) found.set(key, host !== undefined ? { ...located, hosts: [host] } : located);
    }
  };
  if (snapshots === undefined) {
    const placeholders = { ...settings, sources: { ...settings.sources, local: new PlaceholderFacts(), remote: new PlaceholderHostFacts() } };
    await checkOnce(placeholders, (rule, problems) => add(undefined, rule, problems), parses, seen);
  } else for (const snapshot of snapshots) await checkOnce(snapshotSettings(settings, snapshot), (rule, problems) => add(snapshot.host, rule, problems), parses, seen);
  const report: CheckReport = { root, files, problems: [...found.values()].sort(byPlace) };
  if (snapshots !== undefined) report.hosts = snapshots.map((s) => s.host);
  else if (options.needsFacts ?? true) {
    const needs = Object.fromEntries(files.map((f) => [f, neededFacts(path.join(root, f), root)] as const).filter(([, names]) => names.length > 0));
    report.needsFacts = needs;
  }
  return report;
}

/** One planning of the tree, every phase's problems given to `found`, masked with every secret met. */
async function checkOnce(settings: PlanSettings, found: (rule: CheckRule, problems: Problem[]) => void, parses: RunnerCache, seen?: (resources: Resource[]) => void): Promise<void> {
  const secrets = new PlanningSecrets();
  const raw: [CheckRule, Problem[]][] = [];
  const clock = new PhaseClock();
  const step = async <T>(rule: CheckRule, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      raw.push([rule, e.problems]);
      return undefined;
    }
  };
  await step('state', async () => {
    const read = await readResources(settings, clock, secrets, true, parses);
    raw.push(['state', read.problems]);
    // Without their templates rendered, resources are still checked against their runners.
    const resources = (await step('templates', () => renderResourceTemplates(read.parsed, settings.paths.templates, read.timed, read.root))) ?? read.parsed;
    raw.push(['templates', misplacedEncrypted(resources)]);
    resources.forEach((r) => secrets.addResource(r));
    seen?.(resources);
    const { parseCache } = read;
    await step('resources', () => buildGraph(resources, { runnerDirs: settings.paths.runners, cache: settings.cache, root: read.root, checkedBefore: (r, d) => parseCache.checkedBefore(r, d), passed: (r, d) => parseCache.passed(r, d) }));
    parseCache.commit();
  });
  for (const [rule, problems] of raw) if (problems.length > 0) found(rule, (secrets.masked(new UserError(problems)) as UserError).problems);
}

/** Problems of the tree as a whole first, then by file, line and column. */
function byPlace(a: CheckProblem, b: CheckProblem): number {
  const fa = a.file ?? '';
  const fb = b.file ?? '';
  return fa < fb ? -1 : fa > fb ? 1 : (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}
