// What `govern plan` and `govern diff` show of a tree's health checks (docs/rollout.md): each check's
// name, kind, where it is declared (relative to the tree, as a resource's) and its keys. govern diff
// compares them as it compares resources, each under `health "NAME"`, its keys as attributes.
import path from 'node:path';
import type { Check, CheckKind } from '../checks/kinds.js';
import { formatDuration } from '../shared/duration.js';
import type { AttrValue } from '../shared/protocol.js';
import { terminalLine } from '../shared/terminal-text.js';
import type { ResourceView } from './view.js';

export interface HealthView {
  name: string;
  kind: CheckKind;
  /** `file:line`, the file relative to the tree. */
  at: string;
  /** The kind's key and the keys that go with it, then `timeout` (as a duration) and `retries` when given. */
  keys: Record<string, string | number>;
}

export function healthView(c: Check, root: string): HealthView {
  const keys: Record<string, string | number> = { ...c.keys };
  if (c.timeoutMs !== undefined) keys.timeout = formatDuration(c.timeoutMs);
  if (c.retries !== undefined) keys.retries = c.retries;
  const at = c.where.startsWith(root + path.sep) ? c.where.slice(root.length + 1) : c.where;
  return { name: c.name, kind: c.kind, at, keys };
}

/** The name govern diff compares a check by, and the run's output names it by. */
export function healthRef(h: HealthView): string {
  return `health ${JSON.stringify(h.name)}`;
}

/** `  health "nginx answers" (site.hcl:12): port`, then one `key = value` line each, as a resource's. */
export function healthViewLines(h: HealthView, indent = '  '): string[] {
  const more = `${indent}     `;
  return [
    terminalLine(`${indent}${healthRef(h)} (${h.at}): ${h.kind}`),
    ...Object.entries(h.keys).map(([key, value]) => terminalLine(`${more}${key} = ${JSON.stringify(value)}`)),
  ];
}

/** A check as compareHost takes a resource: its keys as attributes, nothing hidden, no links. */
export function healthAsResource(h: HealthView, order: number): ResourceView {
  const attrs: Record<string, AttrValue> = { ...h.keys };
  return { ref: healthRef(h), order, at: h.at, attrs, hidden: [], sensitive: false, tags: [], before: [], after: [], notify: [], subscribe: [] };
}
