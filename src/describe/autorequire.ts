// The ordering edges runners ask for in their descriptions (Puppet's autorequire): a file after the
// file resource of its nearest managed parent directory, or after the user named by its owner. An
// edge exists only when both resources are in the tree; the user's own before/after always win.
import path from 'node:path';
import { holds } from '../shared/arguments.js';
import type { Autorequire, Condition, RunnerDescription } from '../shared/description.js';
import { encodeValues } from '../shared/protocol.js';
import { rref, type Resource } from '../state/resource.js';

export interface Edge {
  /** Applied first. */
  from: string;
  to: string;
}

export function autorequireEdges(resources: Resource[], descriptionOf: (type: string) => RunnerDescription | undefined): Edge[] {
  const byRef = new Map(resources.map((r) => [r.ref, r]));
  const edges: Edge[] = [];
  for (const r of resources) {
    for (const rule of descriptionOf(r.type)?.autorequire ?? []) {
      for (const other of namedBy(rule, r, byRef)) {
        const reversed = matches(rule.reverse_when, r, descriptionOf) || matches(rule.reverse_when_other, byRef.get(other)!, descriptionOf);
        edges.push(reversed ? { from: r.ref, to: other } : { from: other, to: r.ref });
      }
    }
  }
  return edges;
}

/** The references of the resources the rule names that exist in the tree. */
function namedBy(rule: Autorequire, r: Resource, byRef: Map<string, Resource>): string[] {
  if (rule.parent_of_name) {
    const parent = nearestManagedParent(rule.runner, r, byRef);
    return parent ? [parent] : [];
  }
  const value = rule.key !== undefined ? r.attrs[rule.key] : undefined;
  if (value === undefined) return [];
  return encodeValues(value)
    .map((name) => rref(rule.runner, name))
    .filter((ref) => ref !== r.ref && byRef.has(ref));
}

/** The resource of `runner` that manages the nearest parent directory of a resource named by an absolute path. */
function nearestManagedParent(runner: string, r: Resource, byRef: Map<string, Resource>): string | undefined {
  if (!r.name.startsWith('/')) return undefined;
  for (let dir = path.posix.dirname(r.name); ; dir = path.posix.dirname(dir)) {
    const ref = rref(runner, dir);
    if (ref !== r.ref && byRef.has(ref)) return ref;
    if (dir === '/' || dir === '.') return undefined;
  }
}

/** Whether a resource's keys (as given, or their defaults) meet the condition. */
function matches(condition: Condition | undefined, r: Resource, descriptionOf: (type: string) => RunnerDescription | undefined): boolean {
  if (!condition) return false;
  const keys = descriptionOf(r.type)?.keys;
  return holds(condition, (key) => {
    const value = r.attrs[key] ?? keys?.[key]?.default;
    const texts = value === undefined ? [] : encodeValues(value);
    return texts.length === 1 ? texts[0] : undefined;
  });
}
