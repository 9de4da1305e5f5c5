// The planning phases `govern run` and `govern graph` share: facts -> render -> parse -> graph.
import { buildPlan, type Plan } from '../graph/plan.js';
import { loadState } from '../state/load.js';
import { UserError } from '../errors.js';
import type { SearchPaths } from '../config/paths.js';
import { localFacts, searchPaths } from './common-options.js';
import type { ParsedArgs } from './options.js';
import { remoteFacts } from './remote-options.js';

export interface Planned {
  plan: Plan;
  paths: SearchPaths;
}

export async function planFromArgs(args: ParsedArgs, usage: string): Promise<Planned> {
  if (args.positional.length !== 1) throw new UserError(`usage: ${usage}`);
  const paths = searchPaths(args);
  const resources = await loadState(args.positional[0], { local: localFacts(args, paths), remote: remoteFacts(args) });
  return { plan: buildPlan(resources), paths };
}
