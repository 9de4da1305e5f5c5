// `govern data [KEY...]`: the data this host sees from a tree's hierarchy (docs/data.md), every
// top-level key or the keys named, each looked up as `{{data "KEY"}}` looks it up, with its search.
import { HIERARCHY_FILE, keyPathProblem } from '../data/hierarchy.js';
import type { Explanation } from '../data/lookup.js';
import { UserError } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import type { FactSources } from '../templates/fact-sources.js';
import { readTreeData } from './data.js';

export interface DataKeys {
  /** Every key's search, level by level, found or not. */
  explanations: Explanation[];
  values: Map<string, AttrValue>;
}

/** `warn` is told of the hierarchy's warnings, and (unless `explaining`) of each key no level has. */
export async function lookUpKeys(root: string, keys: string[], sources: () => FactSources, explaining: boolean, warn: (message: string) => void): Promise<DataKeys> {
  const bad = keys.map(keyPathProblem).filter((why): why is string => why !== undefined);
  if (bad.length > 0) throw new UserError(bad.map((message) => ({ message })));
  const data = await readTreeData(root, sources());
  if (data === undefined) throw new UserError(`${root}: no ${HIERARCHY_FILE} here, so no data (docs/data.md)`);
  for (const message of data.warnings) warn(message);
  const wanted = keys.length > 0 ? keys : data.topKeys().sort();
  const explanations: Explanation[] = [];
  const values = new Map<string, AttrValue>();
  for (const key of wanted) {
    const e = data.explain(key);
    explanations.push(e);
    if (e.result) values.set(key, e.result.value);
    else if (!explaining) warn(`no level has the key "${key}" (levels: ${data.levels.join(', ') || 'none'})`);
  }
  return { explanations, values };
}
