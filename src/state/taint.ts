// A state file that uses a sensitive fact (`{{fact "secret/db_password"}}`) makes sensitive the
// resources the value reaches: the block the call is written in (the nearest block header at or
// above its line), and any resource whose values contain the fact's value (docs/templates.md).
import type { AttrValue } from '../shared/protocol.js';
import type { FactUse } from '../templates/fact-helpers.js';
import type { InstanceDecl } from './modules/declarations.js';
import type { Resource } from './resource.js';

/** Marks the resources (of one state file) that the uses reach; true when the file used any. */
export function taintResources(resources: Resource[], uses: readonly FactUse[]): boolean {
  if (uses.length === 0) return false;
  const headers = [...new Set(resources.map((r) => r.at.line).filter((line): line is number => line !== undefined))].sort((a, b) => a - b);
  const taintedLines = new Set<number>();
  for (const use of uses) {
    if (use.line === undefined) continue;
    const header = headers.filter((line) => line <= use.line!).at(-1);
    if (header !== undefined) taintedLines.add(header);
  }
  const values = uses.map((use) => use.value).filter((value) => value !== '');
  for (const r of resources) {
    const byLine = r.at.line !== undefined && taintedLines.has(r.at.line);
    if (byLine || values.some((value) => contains(r.attrs, value) || contains(r.template?.vars ?? null, value))) r.sensitive = true;
  }
  return true;
}

/**
 * The module instances (of one state file) given the parameters whose lines read a sensitive value
 * (`pw = "{{upper (data "pw")}}"`): the nearest parameter at or above each use inside the block, a
 * value a helper changed, which no search for the value itself would find.
 */
export function taintInstances(instances: InstanceDecl[], resources: readonly Resource[], uses: readonly FactUse[]): InstanceDecl[] {
  const lines = uses.map((use) => use.line).filter((line): line is number => line !== undefined);
  if (lines.length === 0) return instances;
  const headers = [...resources.map((r) => r.at.line), ...instances.map((i) => i.at.line)].filter((line): line is number => line !== undefined);
  return instances.map((instance) => {
    const start = instance.at.line;
    if (start === undefined) return instance;
    const end = Math.min(...headers.filter((line) => line > start));
    const keys = Object.entries(instance.keyAt).flatMap(([name, at]) => (at.line !== undefined ? [{ name, line: at.line }] : [])).sort((a, b) => a.line - b.line);
    const named = new Set(lines.filter((line) => line >= start && line < end).flatMap((line) => keys.filter((k) => k.line <= line).slice(-1).map((k) => k.name)));
    return named.size > 0 ? { ...instance, sensitiveParams: [...named] } : instance;
  });
}

function contains(value: AttrValue, text: string): boolean {
  if (typeof value === 'string') return value.includes(text);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value) === text;
  if (Array.isArray(value)) return value.some((v) => contains(v, text));
  if (value !== null && typeof value === 'object') return Object.values(value).some((v) => contains(v, text));
  return false;
}
