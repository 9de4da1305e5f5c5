// The ordering edges runners ask for in their descriptions (Puppet's autorequire): a file after the
// file resource of its nearest managed parent directory, or after the user named by its owner. An
// edge exists only when both resources are in the tree; the user's own before/after always win.
import path from 'node:path';
import { describeCondition, holds } from '../shared/arguments.js';
import type { Autorequire, Condition, RunnerDescription } from '../shared/description.js';
import { formatLocation, type Problem } from '../shared/errors.js';
import { encodeValues } from '../shared/protocol.js';
import { masker } from '../shared/sensitive.js';
import { serviceUnit, unitOfFile, unitsReadBy } from '../shared/systemd-unit.js';
import { rref, type Resource } from '../state/resource.js';

export interface Edge {
  /** Applied first. */
  from: string;
  to: string;
  /** Left out where the tree orders the two the other way (an `every` rule's edge). */
  weak?: boolean;
}

export function autorequireEdges(resources: Resource[], descriptionOf: (type: string) => RunnerDescription | undefined): Edge[] {
  const byRef = new Map(resources.map((r) => [r.ref, r]));
  const managed = new ManagedDirectories(byRef);
  const unitFiles = new UnitFiles(resources);
  const present = typesOf(resources);
  const edges: Edge[] = [];
  const lastBySameKey = new Map<string, string>();
  const sorted = [...resources].sort((a, b) => a.index - b.index);
  const byRunner = new Map<string, string[]>();
  const ofRunner = (runner: string): string[] => {
    if (!byRunner.has(runner)) byRunner.set(runner, sorted.filter((r) => r.type === runner).map((r) => r.ref));
    return byRunner.get(runner)!;
  };
  for (const r of sorted) {
    for (const rule of descriptionOf(r.type)?.autorequire ?? []) {
      if (!present.has(rule.runner)) continue;
      if (rule.same_key !== undefined) {
        const previous = sameKeyPredecessor(rule, r, lastBySameKey);
        if (previous !== undefined) edges.push({ from: previous, to: r.ref });
        continue;
      }
      if (rule.every) {
        for (const other of ofRunner(rule.runner)) if (other !== r.ref) edges.push({ from: other, to: r.ref, weak: true });
        continue;
      }
      for (const other of namedBy(rule, r, byRef, managed, unitFiles)) {
        const reversed = matches(rule.reverse_when, r, descriptionOf) || matches(rule.reverse_when_other, byRef.get(other)!, descriptionOf);
        edges.push(reversed ? { from: r.ref, to: other } : { from: other, to: r.ref });
      }
    }
  }
  return edges;
}

/**
 * A resource that names another which the tree removes (the rule's `reverse_when_other` holds for
 * it: a user or group with ensure = "absent"), while it is not removed itself: the first run would
 * succeed and leave it needing what no longer exists (a file owned by a removed group fails the
 * next run with "unknown group"). A contradiction of the tree, named while planning.
 */
export function removedWhileNeeded(resources: Resource[], descriptionOf: (type: string) => RunnerDescription | undefined): Problem[] {
  const byRef = new Map(resources.map((r) => [r.ref, r]));
  const managed = new ManagedDirectories(byRef);
  const unitFiles = new UnitFiles(resources);
  const present = typesOf(resources);
  const problems: Problem[] = [];
  for (const r of resources) {
    for (const rule of descriptionOf(r.type)?.autorequire ?? []) {
      if (!present.has(rule.runner) || rule.reverse_when_other === undefined || rule.key === undefined || matches(rule.reverse_when_other, r, descriptionOf)) continue;
      for (const ref of namedBy(rule, r, byRef, managed, unitFiles)) {
        const other = byRef.get(ref)!;
        if (!matches(rule.reverse_when_other, other, descriptionOf)) continue;
        const why = `${r.ref}: ${rule.key} names ${other.ref}, which this tree removes (${describeCondition(rule.reverse_when_other)}, at ${formatLocation(other.at)}): ` +
          `the run would leave ${r.ref} needing what no longer exists; keep ${other.ref}, or change or remove ${r.ref}`;
        problems.push({ ...(r.keyAt?.[rule.key] ?? r.at), message: masker(r)(why) });
      }
    }
  }
  return problems;
}

/** The runners the tree has resources of: a rule names only resources of its runner, so one of a runner the tree does not use names none. */
function typesOf(resources: Resource[]): Set<string> {
  return new Set(resources.map((r) => r.type));
}

/**
 * The resource of the rule's runner defined last before `r` with the same value of the key, and
 * records `r` as the last one (resources are visited in definition order).
 */
function sameKeyPredecessor(rule: Autorequire, r: Resource, last: Map<string, string>): string | undefined {
  const value = r.attrs[rule.same_key!];
  if (value === undefined || r.type !== rule.runner) return undefined;
  const key = `${rule.runner}\0${rule.same_key}\0${JSON.stringify(value)}`;
  const previous = last.get(key);
  last.set(key, r.ref);
  return previous;
}

/** The references of the resources the rule names that exist in the tree. */
function namedBy(rule: Autorequire, r: Resource, byRef: Map<string, Resource>, managed: ManagedDirectories, unitFiles: UnitFiles): string[] {
  if (rule.systemd_unit_of_name) return unitFiles.of(rule.runner, unitsReadBy(serviceUnit(r.name))).filter((ref) => ref !== r.ref);
  if (rule.name_or_parent && r.name.startsWith('/')) {
    const at = managed.atOrAbove(rule.runner, r.name);
    return at && at !== r.ref ? [at] : [];
  }
  if (rule.parent_of_name) {
    const parent = r.name.startsWith('/') && r.name !== '/' ? managed.atOrAbove(rule.runner, path.posix.dirname(r.name)) : undefined;
    return parent ? [parent] : [];
  }
  const value = rule.key !== undefined ? r.attrs[rule.key] : undefined;
  if (value === undefined) return [];
  return encodeValues(value)
    .map((name) => rref(rule.runner, name))
    .filter((ref) => ref !== r.ref && byRef.has(ref));
}

/** The resource of a runner that manages a directory or its nearest parent; the answers are kept, as files share their parents. */
class ManagedDirectories {
  private readonly known = new Map<string, string | undefined>();

  constructor(private readonly byRef: Map<string, Resource>) {}

  atOrAbove(runner: string, dir: string): string | undefined {
    const key = `${runner}\0${dir}`;
    if (this.known.has(key)) return this.known.get(key);
    const ref = rref(runner, dir);
    const found = this.byRef.has(ref) ? ref : dir === '/' || dir === '.' ? undefined : this.atOrAbove(runner, path.posix.dirname(dir));
    this.known.set(key, found);
    return found;
  }
}

/** The resources of a runner by the systemd unit their name is the file (or a drop-in) of, indexed once per runner. */
class UnitFiles {
  private readonly byRunner = new Map<string, Map<string, string[]>>();

  constructor(private readonly resources: Resource[]) {}

  of(runner: string, units: string[]): string[] {
    let index = this.byRunner.get(runner);
    if (!index) {
      index = new Map();
      for (const r of [...this.resources].sort((a, b) => a.index - b.index)) {
        const unit = r.type === runner ? unitOfFile(r.name) : undefined;
        if (unit !== undefined) index.set(unit, [...(index.get(unit) ?? []), r.ref]);
      }
      this.byRunner.set(runner, index);
    }
    return units.flatMap((unit) => index!.get(unit) ?? []);
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
