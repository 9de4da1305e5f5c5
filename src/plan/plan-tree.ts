// Planning a tree, as every command that plans does it (run, resource, graph, plan, diff): the named
// steps data, render, parse, modules, contents, describe and graph, selection, each timed, over
// settings resolved once from the command line (settings.ts, docs/architecture.md).
import type { Check } from '../checks/kinds.js';
import { UserError, type Problem } from '../shared/errors.js';
import type { Resource } from '../state/resource.js';
import { treeRoot } from '../config/paths.js';
import type { KnownRunner } from '../describe/describe-runner.js';
import { buildGraph } from '../describe/build-graph.js';
import type { ResourceGraph } from '../graph/resource-graph.js';
import { selectResources, unknownTags } from '../graph/select.js';
import type { PhaseClock } from '../report/timing.js';
import { PlanningSecrets } from '../shared/planning-secrets.js';
import { didYouMean } from '../shared/suggest.js';
import { duplicates, parseFiles, renderStateFiles } from '../state/load.js';
import { ParseCache } from '../state/parse-cache.js';
import type { RunnerCache } from '../state/runner-cache.js';
import type { TreeData } from '../data/lookup.js';
import { misplacedEncrypted } from '../secrets/misplaced.js';
import { revealWith } from '../secrets/reveal.js';
import { expandModules } from '../state/modules/expand.js';
import type { FactSources } from '../templates/fact-sources.js';
import { renderResourceTemplates } from '../state/resource-templates.js';
import { warn } from '../output/writers.js';
import { readTreeData } from './data.js';
import type { PlanSettings } from './settings.js';

export interface PlannedTree {
  plan: ResourceGraph;
  /** Each runner the tree uses: its executable and what it describes itself as. */
  runners: Map<string, KnownRunner>;
  /** The resources to apply; undefined for all. */
  selected?: Set<string>;
  /** The tree's data, for what explains a plan (undefined without hierarchy.hcl). */
  data?: TreeData;
  /** What planning left out and why, shown under -v (keys of an absent resource that only matter when present). */
  notes?: string[];
  /** The tree's `health` blocks, run after a real run (docs/rollout.md); a module's files may declare them too. */
  health: Check[];
}

/** Every problem of planning is masked with every secret planning met before it leaves here. */
export async function planTree(settings: PlanSettings, clock: PhaseClock): Promise<PlannedTree> {
  const secrets = new PlanningSecrets();
  try {
    return await planMasked(settings, clock, secrets);
  } catch (e) {
    throw secrets.masked(e);
  }
}

async function planMasked(settings: PlanSettings, clock: PhaseClock, secrets: PlanningSecrets): Promise<PlannedTree> {
  const { root, data, timed, parsed, problems, parseCache, health } = await readResources(settings, clock, secrets);
  if (problems.length > 0) throw new UserError(problems);
  const resources = await clock.time('render', () => renderResourceTemplates(parsed, settings.paths.templates, timed, root));
  const misplaced = misplacedEncrypted(resources);
  if (misplaced.length > 0) throw new UserError(misplaced);
  // Rendered templates make contents, and a template's secret fact makes its resource sensitive.
  resources.forEach((r) => secrets.addResource(r));
  return clock.time('plan', async () => {
    const { plan, runners, notes } = await buildGraph(resources, { runnerDirs: settings.paths.runners, cache: settings.cache, root, checkedBefore: (r, d) => parseCache.checkedBefore(r, d), passed: (r, d) => parseCache.passed(r, d) });
    parseCache.commit();
    const filter = { tags: settings.tags, skipTags: settings.skipTags };
    const unknown = unknownTags(plan.resources, filter).map((tag) => `no resource has the tag "${tag}"${didYouMean(tag, new Set(plan.resources.flatMap((r) => r.tags)))}`);
    const selected = selectResources(plan.resources, filter);
    // A --tags that selects nothing is a mistake (a typo left in a timer's options would otherwise
    // keep every run, and govern status, green while nothing is enforced).
    if (filter.tags.length > 0 && selected?.size === 0) {
      throw new UserError([...unknown, `--tags ${filter.tags.join(',')}${filter.skipTags.length > 0 ? ` --skip-tags ${filter.skipTags.join(',')}` : ''} selects no resource of the tree`].map((message) => ({ message })));
    }
    for (const message of unknown) (settings.warn ?? warn)(message);
    return { plan, runners, selected, data, notes, health };
  });
}

/** The tree's resources as parsed, with every problem of its data, render, parse and module phases (check goes on past them). */
export interface ReadResources {
  root: string | undefined;
  data?: TreeData;
  timed: FactSources;
  parsed: Resource[];
  problems: Problem[];
  /** The state files parsed this run, kept once the graph is built (state/parse-cache.ts). */
  parseCache: ParseCache;
  health: Check[];
}

/** `goOn`: a problem of the data phase is one more problem, and state files render without data (govern check). `parses`: where the parse cache keeps its entries. */
export async function readResources(settings: PlanSettings, clock: PhaseClock, secrets: PlanningSecrets, goOn = false, parses: RunnerCache = settings.cache.area('plan')): Promise<ReadResources> {
  const { local, remote } = settings.sources;
  // Facts are loaded between render passes: their time is the facts phase.
  const timed: FactSources = {
    local: { peek: (name) => local.peek(name), load: (names) => clock.time('facts', () => local.load(names)) },
    remote: remote && { peek: (host, name) => remote.peek(host, name), load: (requests) => clock.time('facts', () => remote.load(requests)) },
    inventory: settings.sources.inventory,
  };
  // The data phase: levels rendered from facts, their files read, before any state file renders.
  const root = treeRoot(settings.target);
  const dataProblems: Problem[] = [];
  const data = await clock.time('render', () => readTreeData(root, timed)).catch((e: unknown) => {
    if (!goOn || !(e instanceof UserError)) throw e;
    dataProblems.push(...e.problems);
    return undefined;
  });
  // Encrypted values are decrypted when a template reads them, with the host's identity (docs/secrets.md).
  data?.revealValues(revealWith(settings.identity, settings.unreadableSecrets));
  timed.data = data;
  // Warned of before anything can fail: a level named from a misspelt fact is often why a key is missing.
  const warned = new Set<string>();
  const warnOnce = (message: string) => {
    if (!warned.has(message)) (settings.warn ?? warn)(message);
    warned.add(message);
  };
  data?.warnings.forEach(warnOnce);
  // A file that does not render is left out, and its problems told with every other file's.
  const rendered = await clock.time('render', () => renderStateFiles(settings.target, timed, settings.cache.area('template')));
  const parseCache = new ParseCache(parses);
  const tree = await clock.time('parse', async () => parseFiles(rendered.texts, secrets, 0, parseCache));
  // Module instances become state files of their own, rendered with their parameters; the instances
  // those declare (modules in modules) in the next round, until none is left (docs/modules.md).
  const parsed = [...tree.resources];
  const health = [...tree.health];
  const problems = [...dataProblems, ...rendered.problems, ...tree.problems];
  let expansion = await clock.time('render', () => expandModules(root, tree.instances, data, timed));
  for (;;) {
    const round = expansion;
    const expanded = await clock.time('parse', async () => parseFiles(round.texts, secrets, parsed.length));
    parsed.push(...expanded.resources);
    health.push(...expanded.health);
    problems.push(...round.problems, ...expanded.problems);
    round.warnings.forEach(warnOnce);
    if (expanded.instances.length === 0) break;
    expansion = await clock.time('render', () => expandModules(root, expanded.instances, data, timed, round.taken));
  }
  problems.push(...duplicates(parsed), ...duplicateHealth(health));
  return { root, data, timed, parsed, problems, parseCache, health };
}

/** Two health checks of one name: the report and the record could not tell them apart. */
function duplicateHealth(health: Check[]): Problem[] {
  const first = new Map<string, string>();
  const problems: Problem[] = [];
  for (const c of health) {
    const earlier = first.get(c.name);
    if (earlier !== undefined) problems.push({ message: `${c.where}: health "${c.name}" is already declared at ${earlier}` });
    else first.set(c.name, c.where);
  }
  return problems;
}
