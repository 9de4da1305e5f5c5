// What changes for one host between two plans of a tree, attribute by attribute, and the same
// changes grouped across hosts. Pure and deterministic: resources by RREF, keys and hosts sorted.
import { unifiedDiff } from '../shared/text-diff.js';
import type { AttrValue } from '../shared/protocol.js';
import { SENSITIVE } from '../shared/sensitive.js';
import { HIDDEN_VALUES, type ResourceView } from './view.js';

export interface AttrChange {
  key: string;
  /** Absent: the key is not set on that side. `<sensitive>` for a hidden value. */
  old?: AttrValue;
  new?: AttrValue;
  /** A text value that changed, as `diff -u` lines (never for a hidden value). */
  diff?: string[];
}

export interface ResourceChange {
  ref: string;
  change: 'added' | 'removed' | 'changed';
  /** Every key that differs; for an added resource, every key it has. */
  attrs: AttrChange[];
}

export interface ChangeGroup extends ResourceChange {
  hosts: string[];
}

/** Not attributes, but part of what a resource asks: compared as keys of their own. */
const CORE_KEYS = ['tags', 'before', 'after', 'notify', 'subscribe'] as const;

function keysOf(r: ResourceView): Map<string, AttrValue> {
  const keys = new Map<string, AttrValue>(Object.entries(r.attrs));
  for (const key of CORE_KEYS) if (r[key].length > 0) keys.set(key, r[key]);
  return keys;
}

/** What can be compared of a value: a hidden value's own text, which is never shown. */
function comparable(r: ResourceView, key: string, value: AttrValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  return r[HIDDEN_VALUES]?.[key] ?? JSON.stringify(value);
}

function attrChanges(before: ResourceView, after: ResourceView, labels: readonly [string, string]): AttrChange[] {
  const a = keysOf(before);
  const b = keysOf(after);
  const changes: AttrChange[] = [];
  for (const key of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const old = a.get(key);
    const now = b.get(key);
    // The same text or number, shown on both sides, is unchanged without encoding it.
    if (old === now && typeof old !== 'object' && !before.hidden.includes(key) && !after.hidden.includes(key)) continue;
    if (comparable(before, key, old) === comparable(after, key, now)) continue;
    const change: AttrChange = { key };
    if (old !== undefined) change.old = old;
    if (now !== undefined) change.new = now;
    if (typeof old === 'string' && typeof now === 'string' && old !== SENSITIVE && now !== SENSITIVE && (old.includes('\n') || now.includes('\n'))) {
      change.diff = unifiedDiff(old, now, `${before.ref} (${labels[0]})`, `${after.ref} (${labels[1]})`);
    }
    changes.push(change);
  }
  return changes;
}

/** The changes from one plan of a host to another, by RREF. */
export function compareHost(before: ResourceView[], after: ResourceView[], labels: readonly [string, string] = ['before', 'after']): ResourceChange[] {
  const old = new Map(before.map((r) => [r.ref, r]));
  const now = new Map(after.map((r) => [r.ref, r]));
  const changes: ResourceChange[] = [];
  for (const ref of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const a = old.get(ref);
    const b = now.get(ref);
    if (!a) changes.push({ ref, change: 'added', attrs: [...keysOf(b!)].map(([key, value]) => ({ key, new: value })) });
    else if (!b) changes.push({ ref, change: 'removed', attrs: [] });
    else {
      const attrs = attrChanges(a, b, labels);
      if (attrs.length > 0) changes.push({ ref, change: 'changed', attrs });
    }
  }
  return changes;
}

/** Identical changes on several hosts, once with the hosts they apply to: by RREF, then most hosts first. */
export function groupChanges(byHost: Map<string, ResourceChange[]>): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  for (const host of [...byHost.keys()].sort()) {
    for (const change of byHost.get(host)!) {
      const key = JSON.stringify(change);
      const group = groups.get(key) ?? { ...change, hosts: [] };
      group.hosts.push(host);
      groups.set(key, group);
    }
  }
  return [...groups.values()].sort((x, y) => (x.ref < y.ref ? -1 : x.ref > y.ref ? 1 : y.hosts.length - x.hosts.length || (x.hosts[0] < y.hosts[0] ? -1 : 1)));
}

/** `120 hosts: file:/etc/nginx/nginx.conf contents`, `3 hosts: pkg:redis added`. */
export function summaryLine(group: ChangeGroup): string {
  const hosts = `${group.hosts.length} host${group.hosts.length === 1 ? '' : 's'}`;
  const what = group.change === 'changed' ? group.attrs.map((a) => a.key).join(', ') : group.change;
  return `${hosts}: ${group.ref} ${what}`;
}
