// `govern plan` as text: per host, each resource in apply order with its final attributes, one
// `key = value` line each (values as JSON, so a multi-line file content stays on one line).
import { healthViewLines, type HealthView } from './health-view.js';
import type { ResourceView } from './view.js';

export interface HostPreviewText {
  host: string;
  facts?: string;
  resources?: ResourceView[];
  health?: HealthView[];
  errors?: string[];
}

const LINK_KEYS = ['before', 'after', 'notify', 'subscribe'] as const;

export function resourceLines(r: ResourceView, indent = '  '): string[] {
  const lines = [`${indent}${r.order}. ${r.ref} (${r.at})${r.skipped ? ' [skipped by --tags/--skip-tags]' : ''}${r.sensitive ? ' [sensitive]' : ''}`];
  const more = `${indent}     `;
  if (r.module !== undefined) lines.push(`${more}module: ${r.module}`);
  if (r.roles !== undefined) lines.push(`${more}roles: ${r.roles.join(', ')}`);
  for (const [key, value] of Object.entries(r.attrs)) lines.push(`${more}${key} = ${JSON.stringify(value)}`);
  if (r.tags.length > 0) lines.push(`${more}tags: ${r.tags.join(', ')}`);
  for (const key of LINK_KEYS) if (r[key].length > 0) lines.push(`${more}${key}: ${r[key].join(', ')}`);
  return lines;
}

export function formatHostPreview(p: HostPreviewText): string {
  const from = p.facts !== undefined ? ` (facts: ${p.facts})` : '';
  // The problems themselves are told once, on stderr, as every command tells its errors.
  if (!p.resources) return `host ${p.host}${from}: planning failed: ${count(p.errors?.length ?? 0, 'problem')} (on stderr)\n`;
  const health = p.health ?? [];
  const checks = health.length > 0 ? `, ${count(health.length, 'health check')}` : '';
  const lines = [`host ${p.host}${from}: ${count(p.resources.length, 'resource')}${checks}`, ...p.resources.flatMap((r) => resourceLines(r))];
  // After the resources: a real run checks them once it has applied every one (docs/rollout.md).
  return [...lines, ...health.flatMap((h) => healthViewLines(h))].join('\n') + '\n';
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
