// From a state tree's resources to the resource graph, with everything checked before anything is applied:
// each runner found and asked what it accepts (in parallel; answers kept between runs), every
// resource checked against its runner's description, every reference and signal checked, and the
// ordering the runners ask for added. Every problem is reported at once.
import { refusedSignal } from '../shared/arguments.js';
import type { RunnerDescription } from '../shared/description.js';
import { UserError, type Problem } from '../shared/errors.js';
import { buildResourceGraph, type ResourceGraph } from '../graph/resource-graph.js';
import type { RunnerCache } from '../state/runner-cache.js';
import type { Resource } from '../state/resource.js';
import { autorequireEdges, removedWhileNeeded } from './autorequire.js';
import { DescriptionCache } from './cache.js';
import { checkRelativePaths } from './check-relative-paths.js';
import { dropAbsentOnlyKeys } from './absent-keys.js';
import { checkResources } from './check-resources.js';
import { checkArgumentSizes } from './check-sizes.js';
import { describeRunner, type KnownRunner } from './describe-runner.js';
import { findRunners } from './find-runners.js';

export interface BuildGraphOptions {
  /** The runners directories, highest priority first. */
  runnerDirs: string[];
  /** Where runners' descriptions are kept between runs. */
  cache: RunnerCache;
  /** The environment runners are asked in (the caller's). */
  env?: NodeJS.ProcessEnv;
  /** The state tree's directory: a relative path a resource names (a `source`) stays inside it. */
  root?: string;
  /** A resource whose keys passed this description in an earlier run (state/parse-cache.ts): not checked again. */
  checkedBefore?: (r: Resource, description: RunnerDescription) => boolean;
  /** Told of each resource whose keys were checked now and passed (state/parse-cache.ts keeps it). */
  passed?: (r: Resource, description: RunnerDescription) => void;
}

export interface DescribedGraph {
  plan: ResourceGraph;
  /** Block type -> its runner. */
  runners: Map<string, KnownRunner>;
  /** What planning left out and why, for -v (absent-keys.ts). */
  notes: string[];
}

export async function buildGraph(resources: Resource[], options: BuildGraphOptions): Promise<DescribedGraph> {
  const found = findRunners(resources, options.runnerDirs);
  const problems: Problem[] = [...found.problems];
  const cache = new DescriptionCache(options.cache.area('runner'));
  const used = [...found.executables];
  const answers = await Promise.all(used.map(([, executable]) => cache.answer(executable, (file) => describeRunner(file, options.env ?? process.env))));
  const runners = new Map<string, KnownRunner>();
  used.forEach(([type, executable], i) => {
    const answer = answers[i];
    if (answer.kind === 'invalid') problems.push({ message: `runner "${type}" (${executable}): ${answer.problem}` });
    runners.set(type, { executable, description: answer.kind === 'described' ? answer.description : undefined });
  });
  const descriptionOf = (type: string) => runners.get(type)?.description;
  markSecretKeys(resources, descriptionOf);
  const notes = dropAbsentOnlyKeys(resources, descriptionOf);
  problems.push(
    ...checkResources(resources, descriptionOf, options.checkedBefore, options.passed),
    ...checkRelativePaths(resources, descriptionOf, options.root),
    ...checkArgumentSizes(resources, runners),
    ...removedWhileNeeded(resources, descriptionOf),
  );

  let plan: ResourceGraph | undefined;
  try {
    plan = buildResourceGraph(resources, {
      autorequire: autorequireEdges(resources, descriptionOf),
      refuseSignal: (to, signal) => refusedSignal(to.type, descriptionOf(to.type), signal),
    });
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    problems.push(...e.problems);
  }
  if (problems.length > 0 || !plan) throw new UserError(inFileOrder(problems));
  return { plan, runners, notes };
}

/** A key its runner describes as `sensitive` is hidden wherever govern would show it, and kept off command lines; one it describes as `shown` is not hidden by `sensitive = true`. */
function markSecretKeys(resources: Resource[], descriptionOf: (type: string) => RunnerDescription | undefined): void {
  // Which keys each runner marks, worked out once per runner: most mark none, and their resources are passed over.
  const marked = new Map<string, { sensitive: Set<string>; shown: Set<string> }>();
  for (const r of resources) {
    let of = marked.get(r.type);
    if (of === undefined) {
      const keys = Object.entries(descriptionOf(r.type)?.keys ?? {});
      of = { sensitive: new Set(keys.filter(([, k]) => k?.sensitive === true).map(([key]) => key)), shown: new Set(keys.filter(([, k]) => k?.shown === true).map(([key]) => key)) };
      marked.set(r.type, of);
    }
    const { sensitive, shown } = of;
    if (sensitive.size > 0) {
      const secret = Object.keys(r.attrs).filter((key) => sensitive.has(key));
      if (secret.length > 0) r.secretKeys = secret;
    }
    if (r.sensitive && shown.size > 0) {
      const keys = Object.keys(r.attrs).filter((key) => shown.has(key));
      if (keys.length > 0) r.shownKeys = keys;
    }
  }
}

/** Problems of the tree as a whole first, then by file and line (stable within a line). */
function inFileOrder(problems: Problem[]): Problem[] {
  const rank = (p: Problem) => [p.file ?? '', p.line ?? p.renderedLine ?? 0] as const;
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => {
      const [fa, la] = rank(a.p);
      const [fb, lb] = rank(b.p);
      return fa < fb ? -1 : fa > fb ? 1 : la - lb || a.i - b.i;
    })
    .map(({ p }) => p);
}
