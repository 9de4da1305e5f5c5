// Where a key's value came from beyond its state file's text: the data keys its lines read
// (`{{data "k"}}`: the level that answered, or the merge and its levels, each with its file), and
// for a resource of a module instance, the instance and the parameters its lines read, each with
// where its value came from (the instance's line, a data level, or the declared default).
import { answerText } from '../data/explain.js';
import type { TreeData } from '../data/lookup.js';
import type { MergeStrategy } from '../data/merge.js';
import type { Location } from '../shared/errors.js';
import { SENSITIVE } from '../shared/sensitive.js';
import type { ModuleMembership, ParamOrigin } from '../state/modules/declarations.js';
import { locationText } from './view.js';

export interface DataUse {
  key: string;
  /** Absent: no level has the key (the call's `default=` gave the value). */
  value?: unknown;
  strategy?: MergeStrategy;
  /** The levels that answered, most specific first, each with its file and line. */
  levels: { level: string; at: string }[];
}

export interface ParamUse {
  name: string;
  value: unknown;
  from: ParamOrigin['from'];
  /** The instance's line, the data file's, or the variable's declaration. */
  at: string;
  /** From data: the key and the levels that answered. */
  data?: { key: string; levels: string[] };
}

export interface ModuleOrigin {
  instance: string;
  module: string;
  /** The instance's block, or the data file whose `modules` lists it. */
  at?: string;
  fromData?: boolean;
}

/** The Handlebars expressions of a text (`{{...}}`), without their braces. */
export function mustaches(text: string): string[] {
  return [...text.matchAll(/\{\{~?([\s\S]*?)~?\}\}/g)].map((m) => m[1]);
}

const DATA_CALL = /\bdata\s+"((?:[^"\\]|\\.)*)"/g;
const STRING = /"(?:[^"\\]|\\.)*"/g;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/g;

/** A location as `--explain` shows it: its file relative to the tree's root. */
export function pathsFrom(root: string): (at: Location) => string {
  return (at) => locationText(at, root);
}

/** The data keys the text reads, each with its value (hidden ones masked) and where it came from. */
export function dataUses(text: string, data: TreeData | undefined, hidden: boolean, at: (loc: Location) => string): DataUse[] {
  const keys = [...new Set(mustaches(text).flatMap((m) => [...m.matchAll(DATA_CALL)].map((c) => c[1])))];
  return keys.map((key) => {
    const found = data?.lookup(key);
    if (!data || !found) return { key, levels: [] };
    const strategy = data.strategy(key);
    return {
      key,
      value: hidden || found.sensitive ? SENSITIVE : found.value,
      strategy,
      levels: found.origins.map((o) => ({ level: o.level, at: at({ file: o.file, ...(o.line !== undefined ? { line: o.line } : {}) }) })),
    };
  });
}

/** The names the text's `{{...}}` expressions read, outside their strings. */
export function namesRead(text: string): Set<string> {
  return new Set(mustaches(text).flatMap((m) => m.replace(STRING, '""').match(NAME) ?? []));
}

/** The instance's parameters the text reads (a name inside `{{...}}` outside a string). */
export function paramUses(text: string, module: ModuleMembership | undefined, hidden: boolean, at: (loc: Location) => string): ParamUse[] {
  const params = module?.params;
  if (!params) return [];
  const names = namesRead(text);
  return Object.keys(params)
    .filter((name) => names.has(name))
    .sort()
    .map((name) => {
      const p = params[name];
      return { name, value: hidden || p.sensitive ? SENSITIVE : p.value, from: p.from, at: at(p.at), ...(p.data ? { data: p.data } : {}) };
    });
}

export function moduleOrigin(module: ModuleMembership | undefined, at: (loc: Location) => string): ModuleOrigin | undefined {
  if (!module) return undefined;
  return { instance: module.instance, module: module.source, ...(module.at ? { at: at(module.at) } : {}), ...(module.fromData ? { fromData: true } : {}) };
}

export function moduleLine(m: ModuleOrigin): string {
  const where = m.at === undefined ? '' : m.fromData ? `, listed by the data key "modules" at ${m.at}` : `, declared at ${m.at}`;
  return `  module instance ${m.instance} (module ${m.module})${where}`;
}

export function dataLine(d: DataUse): string {
  if (d.strategy === undefined) return `    data "${d.key}": no level has it (the call's default)`;
  return `    data "${d.key}" = ${JSON.stringify(d.value)}, ${answerText(d.strategy, d.levels)}`;
}

export function paramLine(p: ParamUse): string {
  const head = `    parameter ${p.name} = ${JSON.stringify(p.value)}`;
  if (p.from === 'instance') return `${head}, set by the instance at ${p.at}`;
  if (p.from === 'default') return `${head}, the default its declaration gives at ${p.at}`;
  return `${head}, from data "${p.data!.key}" at level ${p.data!.levels.join(', ')} (${p.at})`;
}
