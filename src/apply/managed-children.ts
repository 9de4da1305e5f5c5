// A runner that removes what a directory holds and the tree does not manage (the file runner's
// `purge = true`) must know what the tree manages there, not guess it: govern passes it
// GOVERN_MANAGED_CHILDREN, the names of the directory's entries that some resource of the tree
// manages, one a line (docs/runners.md): an entry is managed when a resource of any runner names
// its path, or a path below it, as its name, as the value of a key its runner's description types
// `path` (the line runner's `path`, an exec's `creates`), or as a file its description says it
// writes (`writes`: a cron job's /etc/cron.d/NAME). Counting every path key errs on keeping.
// Only resources whose `purge` key is true get it.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { holds } from '../shared/arguments.js';
import type { Condition, RunnerDescription } from '../shared/description.js';
import { encodeValues } from '../shared/protocol.js';
import { writtenPaths, type HostLookups } from '../shared/written-paths.js';
import type { Resource } from '../state/resource.js';

/** For each resource with `purge = true` and an absolute path as its name: its directory's managed entry names. */
export function managedChildren(
  resources: Iterable<Resource>,
  describe: (runner: string) => RunnerDescription | undefined = () => undefined,
  host: HostLookups = localHost(process.env),
): Map<string, string[]> {
  const all = [...resources];
  const purging = new Map<string, Set<string>>();
  for (const r of all) if (isPurging(r)) purging.set(r.name, new Set());
  if (purging.size === 0) return new Map();
  for (const r of all) {
    const description = describe(r.type);
    const written = writtenPaths(r, description, host, (when) => matches(when, r, description));
    // A file name a runner may write in any directory (where the host's configuration decides which).
    for (const w of written) if ('anywhere' in w) for (const names of purging.values()) names.add(w.anywhere);
    for (const named of [...pathsOf(r, description), ...written.flatMap((w) => ('path' in w ? [w.path] : []))]) {
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
    if (names && isPurging(r)) byRef.set(r.ref, [...names].sort());
  }
  return byRef;
}

/** Whether the resource purges a directory, and so is given GOVERN_MANAGED_CHILDREN. */
export function isPurging(r: Resource): boolean {
  return r.attrs.purge === true && r.name.startsWith('/');
}

/**
 * This host's answers: the environment runners get, and homes from the accounts database (`getent
 * passwd`, as the runners look them up). A lookup that fails is an error: a purge that cannot tell
 * where a managed file is must not run.
 */
export function localHost(env: NodeJS.ProcessEnv): HostLookups {
  const homes = new Map<string, string | undefined>();
  return {
    env,
    ownHome: () => os.homedir(),
    homeOf(user) {
      if (!homes.has(user)) {
        const result = spawnSync('getent', ['passwd', user], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
        if (result.status === 2) homes.set(user, undefined);
        else if (result.status !== 0) throw new Error(`getent passwd ${user} failed (${result.error?.message ?? `exit ${result.status}`}): purge cannot know where that user's managed files are`);
        else homes.set(user, result.stdout.split('\n')[0].split(':')[5] || undefined);
      }
      return homes.get(user);
    },
  };
}

/** Whether a resource's keys (as given, or their defaults) meet the condition. */
function matches(condition: Condition | undefined, r: Resource, description: RunnerDescription | undefined): boolean {
  if (!condition) return true;
  return holds(condition, (key) => {
    const value = r.attrs[key] ?? description?.keys?.[key]?.default;
    const texts = value === undefined ? [] : encodeValues(value as never);
    return texts.length === 1 ? texts[0] : undefined;
  });
}

/** The absolute paths a resource names: its name, and its path-typed keys' values (or defaults). */
function pathsOf(r: Resource, description: RunnerDescription | undefined): string[] {
  const paths = [r.name];
  for (const [key, spec] of Object.entries(description?.keys ?? {})) {
    // A default counts: mount's `fstab` is /etc/fstab when not given.
    const value = r.attrs[key] ?? spec.default;
    if (spec.type === 'path' && typeof value === 'string') paths.push(value);
  }
  return paths.filter((p) => p.startsWith('/')).map((p) => p.replace(/\/+$/, '') || '/');
}

function parentOf(path: string): string | undefined {
  if (path === '/') return undefined;
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}
