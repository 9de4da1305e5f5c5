// The planning phases `govern run` and `govern graph` share: facts -> render -> parse -> graph.
import { planTree, type PlannedTree } from '../describe/plan-tree.js';
import { loadState } from '../state/load.js';
import { UserError } from '../shared/errors.js';
import type { SearchPaths } from '../config/paths.js';
import { localFacts, searchPaths } from './common-options.js';
import { optionValue, type OptionSpec, type ParsedArgs } from './options.js';
import { defaultCacheDir, noCache, openParseCache } from '../state/parse-cache.js';

export const cacheOptions: OptionSpec[] = [
  { name: 'cache-dir', value: true, placeholder: 'DIR', help: 'where parsed state files are kept (default /var/cache/govern as root, GOVERN_CACHE_DIR)' },
  { name: 'no-cache', help: 'parse every state file, and keep nothing' },
];
import { remoteFacts } from './remote-options.js';

export interface Planned extends PlannedTree {
  paths: SearchPaths;
}

export async function planFromArgs(args: ParsedArgs, usage: string): Promise<Planned> {
  if (args.positional.length !== 1) throw new UserError(`usage: ${usage}`);
  const paths = searchPaths(args);
  const cache = args.flags.has('no-cache') ? noCache : openParseCache(optionValue(args, 'cache-dir') ?? defaultCacheDir());
  const resources = await loadState(args.positional[0], { local: localFacts(args, paths), remote: remoteFacts(args) }, cache);
  return { ...(await planTree(resources, { runnerDirs: paths.runners, cache })), paths };
}
