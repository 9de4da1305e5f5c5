// A parsed document as plain values (what JSON.parse, yaml's toJS and a TOML parser give) and the
// one change a structured edit makes to it: a value set at a key path, or the path removed. Pure:
// each format's edit is checked against what this says the document becomes.
import { UserError } from '../../../shared/errors.js';

export type Tree = unknown;

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
}

function index(segment: string, list: unknown[]): number | undefined {
  if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
  const i = Number(segment);
  return i < list.length ? i : undefined;
}

/** What the path holds: `found: false` when some segment is not there. */
export function getAt(tree: Tree, path: readonly string[]): { found: boolean; value?: unknown } {
  let node: unknown = tree;
  for (const segment of path) {
    if (isMap(node) && Object.prototype.hasOwnProperty.call(node, segment)) node = node[segment];
    else if (Array.isArray(node) && index(segment, node) !== undefined) node = node[index(segment, node)!];
    else return { found: false };
  }
  return { found: true, value: node };
}

/**
 * The tree with `value` at the path (undefined: the path removed), the maps on the way made when
 * missing. A segment on a list names an existing item by its index; a segment that goes through a
 * value that is neither a map nor a list is refused, naming where.
 */
export function withValue(tree: Tree, path: readonly string[], value: unknown, shown: (upTo: number) => string): Tree {
  const walk = (node: unknown, depth: number): unknown => {
    if (depth === path.length) return value;
    const segment = path[depth];
    if (Array.isArray(node)) {
      const i = index(segment, node);
      if (i === undefined) {
        if (value === undefined) return node;
        throw new UserError(`${shown(depth)} is a list of ${node.length} item${node.length === 1 ? '' : 's'}: ${JSON.stringify(segment)} is not the index of one of them`);
      }
      const copy = [...node];
      if (depth + 1 === path.length && value === undefined) copy.splice(i, 1);
      else copy[i] = walk(node[i], depth + 1);
      return copy;
    }
    if (node === undefined && value === undefined) return undefined;
    if (node !== undefined && node !== null && !isMap(node)) {
      if (value === undefined) return node;
      throw new UserError(`${shown(depth)} holds ${kind(node)}, not a map: ${path.slice(depth).join('/')} cannot be set inside it`);
    }
    const copy: Record<string, unknown> = isMap(node) ? { ...node } : {};
    const below = walk(copy[segment], depth + 1);
    if (below === undefined) delete copy[segment];
    // Defined, not assigned: a key named __proto__ is a key like any other.
    else Object.defineProperty(copy, segment, { value: below, enumerable: true, writable: true, configurable: true });
    return copy;
  };
  return walk(tree, 0);
}

function kind(v: unknown): string {
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'a number';
  if (typeof v === 'boolean') return 'a boolean';
  if (v instanceof Date) return 'a date';
  return 'a value';
}

/** Equal as data: maps by their keys (in any order), lists item by item, dates by their time. */
export function sameTree(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' || typeof b === 'bigint') return typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b);
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime() && String(a) === String(b);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameTree(x, b[i]));
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameTree(a[k], b[k]));
  }
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}
