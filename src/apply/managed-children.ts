// A runner that removes what a directory holds and the tree does not manage (the file runner's
// `purge = true`) must know what the tree manages there, not guess it: govern passes it
// GOVERN_MANAGED_CHILDREN, the names of the directory's entries that some resource of the tree
// manages, one a line (docs/runners.md): an entry is managed when a resource of any runner names
// its path, or a path below it, as its name or as the value of a key its runner's description types
// `path` (the line runner's `path`, an exec's `creates`). Counting every path key errs on keeping.
// Only resources whose `purge` key is true get it.
import type { RunnerDescription } from '../shared/description.js';
import type { Resource } from '../state/resource.js';

/** The bytes the names may take: an environment variable over 128 KiB cannot be passed (Linux's MAX_ARG_STRLEN). */
export const MANAGED_CHILDREN_BYTES = 64 * 1024;

/** For each resource with `purge = true` and an absolute path as its name: its directory's managed entry names. */
export function managedChildren(resources: Iterable<Resource>, describe: (runner: string) => RunnerDescription | undefined = () => undefined): Map<string, string[]> {
  const all = [...resources];
  const purging = new Map<string, Set<string>>();
  for (const r of all) if (r.attrs.purge === true && r.name.startsWith('/')) purging.set(r.name, new Set());
  if (purging.size === 0) return new Map();
  for (const r of all) {
    for (const named of pathsOf(r, describe(r.type))) {
      // Each directory above the path that purges keeps the component leading down to it.
      let child = named;
      for (let dir = parentOf(child); dir !== undefined; child = dir, dir = parentOf(dir)) {
        purging.get(dir)?.add(child.slice(dir === '/' ? 1 : dir.length + 1));
      }
    }
  }
  const byRef = new Map<string, string[]>();
  for (const r of all) {
    const names = purging.get(r.name);
    if (names && r.attrs.purge === true) byRef.set(r.ref, [...names].sort());
  }
  return byRef;
}

/** The value of GOVERN_MANAGED_CHILDREN; a list too long to pass is an error rather than a shorter list. */
export function managedChildrenValue(names: string[], name: string): string {
  const value = names.join('\n');
  if (Buffer.byteLength(value) > MANAGED_CHILDREN_BYTES) {
    throw new Error(`the names of the ${names.length} managed entries of ${name} take over ${MANAGED_CHILDREN_BYTES / 1024} KiB, more than govern passes to a runner; purge cannot know what it may remove`);
  }
  return value;
}

/** The absolute paths a resource names: its name, and its path-typed keys' values. */
function pathsOf(r: Resource, description: RunnerDescription | undefined): string[] {
  const paths = [r.name];
  for (const [key, spec] of Object.entries(description?.keys ?? {})) {
    const value = r.attrs[key];
    if (spec.type === 'path' && typeof value === 'string') paths.push(value);
  }
  return paths.filter((p) => p.startsWith('/')).map((p) => p.replace(/\/+$/, '') || '/');
}

function parentOf(path: string): string | undefined {
  if (path === '/') return undefined;
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}
