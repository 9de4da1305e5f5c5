// Which resources a run applies (--tags, --skip-tags), as Puppet selects them: a resource is tagged
// with its `tags`, its runner name and its RREF; with --tags it is selected when it has one of
// them, and --skip-tags leaves out every resource that has one of those.
import type { Resource } from '../state/resource.js';

export interface TagFilter {
  tags: string[];
  skipTags: string[];
}

export function resourceTags(r: Resource): string[] {
  return [...r.tags, r.type, r.ref];
}

/** The RREFs to apply; undefined when no filter is given (everything). */
export function selectResources(resources: Resource[], filter: TagFilter): Set<string> | undefined {
  if (filter.tags.length === 0 && filter.skipTags.length === 0) return undefined;
  const wanted = new Set(filter.tags);
  const skipped = new Set(filter.skipTags);
  const selected = new Set<string>();
  for (const r of resources) {
    const tags = resourceTags(r);
    if (wanted.size > 0 && !tags.some((t) => wanted.has(t))) continue;
    if (tags.some((t) => skipped.has(t))) continue;
    selected.add(r.ref);
  }
  return selected;
}

/** Tags of the filter that no resource has (a typo, most likely). */
export function unknownTags(resources: Resource[], filter: TagFilter): string[] {
  if (filter.tags.length === 0 && filter.skipTags.length === 0) return [];
  const known = new Set(resources.flatMap(resourceTags));
  return [...new Set([...filter.tags, ...filter.skipTags])].filter((t) => !known.has(t));
}
