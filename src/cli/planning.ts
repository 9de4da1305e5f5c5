// The planning `govern run` and `govern graph` share: facts -> render -> parse -> graph, the
// runners each resource needs, and the selection by tags; every phase timed. Both commands take
// the same planning options, so one can replace the other on a command line.
import { UserError } from '../shared/errors.js';
import { treeRoot, type SearchPaths } from '../config/paths.js';
import type { LocalFacts } from '../facts/local-facts.js';
import { planResources, type KnownRunner } from '../describe/plan-resources.js';
import type { Plan } from '../graph/plan.js';
import { selectResources, unknownTags } from '../graph/select.js';
import type { PhaseClock } from '../report/timing.js';
import { PlanningSecrets } from '../shared/planning-secrets.js';
import { didYouMean } from '../shared/suggest.js';
import { duplicates, parseFiles, renderStateFiles } from '../state/load.js';
import type { TreeData } from '../data/lookup.js';
import { revealWith, type Unreadable } from '../secrets/reveal.js';
import { expandModules } from '../state/modules/expand.js';
import { defaultCacheDir, noCache, openParseCache, type ParseCache } from '../state/parse-cache.js';
import type { FactSources } from '../templates/fact-sources.js';
import { renderResourceTemplates } from '../templates/resource-templates.js';
import { warn } from './command.js';
import { factsOptions, identityOptions, localFacts, runnersOptions, templatesOptions } from './common-options.js';
import { optionTable, type Options } from './options.js';
import { factSources, inventoryOptions } from './inventory-options.js';
import { remoteFactOptions } from './remote-options.js';
import { readTreeData, treeSearchPaths } from './tree-data.js';

export const cacheOptions = optionTable([
  { name: 'cache-dir', kind: 'text', placeholder: 'DIR', env: 'GOVERN_CACHE_DIR', help: 'where runners\' descriptions are kept between runs: as root /var/cache/govern, else ~/.cache/govern' },
  { name: 'no-cache', kind: 'flag', help: 'ask every runner to describe itself again, and keep nothing' },
]);

export const selectionOptions = optionTable([
  { name: 'tags', kind: 'list', placeholder: 'TAGS', help: 'apply only resources with one of these tags (a tags entry, a runner name or an RREF; comma-separated)' },
  { name: 'skip-tags', kind: 'list', placeholder: 'TAGS', help: 'leave out resources with one of these tags' },
]);

export const planningOptions = optionTable([...runnersOptions, ...factsOptions, ...templatesOptions, ...identityOptions, ...remoteFactOptions, ...inventoryOptions, ...cacheOptions, ...selectionOptions]);

export type PlanningOptions = Options<typeof planningOptions>;

/** What planning reads from: made from the options before anything is read. */
export interface PlanningInputs {
  target: string;
  paths: SearchPaths;
  facts: LocalFacts;
  sources: FactSources;
  cache: ParseCache;
  options: PlanningOptions;
  /** An encrypted value the identity cannot read: an error (a run), or `<sensitive>` (plan, diff). */
  unreadableSecrets: Unreadable;
}

export interface Planned {
  plan: Plan;
  /** Each runner the tree uses: its executable and what it describes itself as. */
  runners: Map<string, KnownRunner>;
  /** The resources to apply; undefined for all. */
  selected?: Set<string>;
  /** The tree's data, for what explains a plan (undefined without hierarchy.hcl). */
  data?: TreeData;
}

export function planningInputs(target: string, o: PlanningOptions): PlanningInputs {
  const paths = treeSearchPaths(o, treeRoot(target));
  const facts = localFacts(o, paths);
  return {
    target,
    paths,
    facts,
    sources: factSources(o, facts),
    cache: o.noCache ? noCache : openParseCache(o.cacheDir ?? defaultCacheDir()),
    options: o,
    unreadableSecrets: 'error',
  };
}

/** Every problem of planning is masked with every secret planning met before it leaves here. */
export async function planTree(inputs: PlanningInputs, clock: PhaseClock): Promise<Planned> {
  const secrets = new PlanningSecrets();
  try {
    return await planMasked(inputs, clock, secrets);
  } catch (e) {
    throw secrets.masked(e);
  }
}

async function planMasked(inputs: PlanningInputs, clock: PhaseClock, secrets: PlanningSecrets): Promise<Planned> {
  const { local, remote } = inputs.sources;
  // Facts are loaded between render passes: their time is the facts phase.
  const timed: FactSources = {
    local: { peek: (name) => local.peek(name), load: (names) => clock.time('facts', () => local.load(names)) },
    remote: remote && { peek: (host, name) => remote.peek(host, name), load: (requests) => clock.time('facts', () => remote.load(requests)) },
    inventory: inputs.sources.inventory,
  };
  // The data phase: levels rendered from facts, their files read, before any state file renders.
  const root = treeRoot(inputs.target);
  const data = await clock.time('render', () => readTreeData(root, timed));
  // Encrypted values are decrypted when a template reads them, with the host's identity (docs/secrets.md).
  data?.revealValues(revealWith(inputs.options.identity, inputs.unreadableSecrets));
  timed.data = data;
  const texts = await clock.time('render', () => renderStateFiles(inputs.target, timed));
  const tree = await clock.time('parse', async () => parseFiles(texts, secrets));
  // Module instances become state files of their own, rendered with their parameters; the instances
  // those declare (modules in modules) in the next round, until none is left (docs/modules.md).
  const parsed = [...tree.resources];
  const problems = [...tree.problems];
  let expansion = await clock.time('render', () => expandModules(root, tree.instances, data, timed));
  for (;;) {
    const round = expansion;
    const expanded = await clock.time('parse', async () => parseFiles(round.texts, secrets, parsed.length));
    parsed.push(...expanded.resources);
    problems.push(...round.problems, ...expanded.problems);
    if (expanded.instances.length === 0) break;
    expansion = await clock.time('render', () => expandModules(root, expanded.instances, data, timed, round.taken));
  }
  problems.push(...duplicates(parsed));
  if (problems.length > 0) throw new UserError(problems);
  const resources = await clock.time('render', () => renderResourceTemplates(parsed, inputs.paths.templates, timed, root));
  // Rendered templates make contents, and a template's secret fact makes its resource sensitive.
  resources.forEach((r) => secrets.addResource(r));
  return clock.time('plan', async () => {
    const { plan, runners } = await planResources(resources, { runnerDirs: inputs.paths.runners, cache: inputs.cache, root });
    const filter = { tags: inputs.options.tags, skipTags: inputs.options.skipTags };
    const unknown = unknownTags(plan.resources, filter).map((tag) => `no resource has the tag "${tag}"${didYouMean(tag, new Set(plan.resources.flatMap((r) => r.tags)))}`);
    const selected = selectResources(plan.resources, filter);
    // A --tags that selects nothing is a mistake (a typo left in a timer's options would otherwise
    // keep every run, and govern status, green while nothing is enforced).
    if (filter.tags.length > 0 && selected?.size === 0) {
      throw new UserError([...unknown, `--tags ${filter.tags.join(',')}${filter.skipTags.length > 0 ? ` --skip-tags ${filter.skipTags.join(',')}` : ''} selects no resource of the tree`].map((message) => ({ message })));
    }
    for (const message of unknown) warn(message);
    return { plan, runners, selected, data };
  });
}
