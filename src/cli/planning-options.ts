// The planning options every command that plans takes (run, resource, graph, plan, diff), and the
// one place they become the plain settings planning reads (src/plan/settings.ts). Both run and graph
// take the same options, so one can replace the other on a command line.
import { treeRoot } from '../config/paths.js';
import type { PlanSettings } from '../plan/settings.js';
import { defaultCacheDir, noCache, openRunnerCache } from '../state/runner-cache.js';
import { factsOptions, identityOptions, localFacts, runnersOptions, templatesOptions } from './common-options.js';
import { factSources, inventoryOptions } from './inventory-options.js';
import { optionTable, type Options } from './options.js';
import { remoteFactOptions } from './remote-options.js';
import { treeSearchPaths } from '../plan/tree-paths.js';

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

/** The settings planning reads from, from the planning options: resolved here, once. */
export function planSettings(target: string, o: PlanningOptions): PlanSettings {
  const paths = treeSearchPaths(o, treeRoot(target));
  const facts = localFacts(o, paths);
  return {
    target,
    paths,
    facts,
    sources: factSources(o, facts),
    cache: o.noCache ? noCache : openRunnerCache(o.cacheDir ?? defaultCacheDir()),
    identity: o.identity,
    tags: o.tags,
    skipTags: o.skipTags,
    hostfactSource: o.hostfactSource,
    fleetUrl: o.fleetUrl,
    unreadableSecrets: 'error',
  };
}
