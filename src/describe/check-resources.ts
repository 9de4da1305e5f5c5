// Every resource of a described runner checked against its description, before anything is
// applied: each problem at the line of the key it is about.
import { checkArguments } from '../shared/arguments.js';
import type { RunnerDescription } from '../shared/description.js';
import type { Problem } from '../shared/errors.js';
import { paramsOf } from '../shared/protocol.js';
import { masker } from '../shared/sensitive.js';
import { keyLocation, type Resource } from '../state/resource.js';

/** `passed`: told of each resource checked now whose keys have no problem. */
export function checkResources(
  resources: Resource[],
  descriptionOf: (type: string) => RunnerDescription | undefined,
  checkedBefore?: (r: Resource, description: RunnerDescription) => boolean,
  passed?: (r: Resource, description: RunnerDescription) => void,
): Problem[] {
  const problems: Problem[] = [];
  for (const r of resources) {
    const description = descriptionOf(r.type);
    if (!description || checkedBefore?.(r, description)) continue;
    const found = checkArguments(r.type, description, r.name, paramsOf(r.attrs)).problems;
    if (found.length === 0) {
      passed?.(r, description);
      continue;
    }
    const mask = masker(r); // a sensitive resource's values stay out of messages about it
    for (const p of found) problems.push({ ...keyLocation(r, p.key), message: mask(`${r.ref}: ${p.message}`) });
  }
  return problems;
}
