// `govern run --json` (and `govern resource --json`) whose options cannot be read: still a JSON
// report, as a run that fails before applying gives, with this host's facts from the default
// facts directories (and the tree's own, when it has one).
import { LocalFacts } from '../facts/local-facts.js';
import { errorReport } from '../report/build.js';
import { reportJson } from '../report/json.js';
import { runMeta } from '../report/meta.js';
import { PhaseClock, sinceStart } from '../report/timing.js';
import { searchPaths } from '../plan/tree-paths.js';

/** `state`: what the report says was run (the tree, or RUNNER:NAME); `tree`: the state tree's root, if any. */
export async function errorDocument(state: string, tree: string | undefined, noop: boolean, e: unknown): Promise<string> {
  const facts = new LocalFacts({ dirs: searchPaths({}, tree).facts });
  return reportJson(errorReport(await runMeta(state, noop, facts), e, new PhaseClock().timings(), sinceStart()));
}
