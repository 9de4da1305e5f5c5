// `ensure = "absent"` with keys that only matter when the thing is present (a file's contents, a
// user's shell, a mount's device): left out before the runner is called, with a note under -v, as
// Puppet and Ansible accept them. Flipping ensure, or driving it from a module parameter, then
// needs no other edit (docs/runners.md, "ensure = absent").
import { describeCondition } from '../shared/arguments.js';
import type { RunnerDescription } from '../shared/description.js';
import { formatLocation } from '../shared/errors.js';
import type { Resource } from '../state/resource.js';

/** Takes the present-only keys out of each resource to remove; a note for each resource that had some. */
export function dropAbsentOnlyKeys(resources: Resource[], descriptionOf: (type: string) => RunnerDescription | undefined): string[] {
  const notes: string[] = [];
  for (const r of resources) {
    const description = descriptionOf(r.type);
    const ensure = r.attrs.ensure ?? description?.keys?.ensure?.default;
    if (!description || ensure !== 'absent') continue;
    const dropped: { key: string; rule: string }[] = [];
    for (const rule of description.rules ?? []) {
      if (!('only_when' in rule)) continue;
      const condition = rule.only_when;
      // Only a rule on ensure alone: a key refused for another reason (a provider) stays refused.
      if (Object.keys(condition).length !== 1 || !condition.ensure || condition.ensure.includes('absent')) continue;
      for (const key of rule.keys) {
        if (r.attrs[key] === undefined || dropped.some((d) => d.key === key)) continue;
        dropped.push({ key, rule: describeCondition(condition) });
      }
    }
    if (dropped.length === 0) continue;
    for (const { key } of dropped) delete r.attrs[key];
    const why = [...new Set(dropped.map((d) => d.rule))].map((rule) => `only for ${rule}`).join('; ');
    notes.push(`${formatLocation(r.at)}: ${r.ref}: ensure = "absent": ${dropped.map((d) => d.key).join(', ')} ignored (${why})`);
  }
  return notes;
}
