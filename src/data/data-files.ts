// A level's data file: data/LEVEL.hcl, .json, .yaml or .yml (docs/data.md). HCL files are read by
// govern's HCL parser (attributes only: the values are literals); JSON and YAML through the `yaml`
// library, which knows both and tells the line of each key. A file's top level is a map of keys.
import fs from 'node:fs';
import path from 'node:path';
import type * as Yaml from 'yaml';
import { UserError, type Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { readSourceFile } from '../shared/source-file.js';
import { parseHcl, type ValueSpans } from '../hcl/parse.js';
import { hclDataFile } from './hcl-data.js';
import type { DataFile } from './source.js';
import { DATA_DIR } from './hierarchy.js';


/** Loaded when a JSON or YAML data file is first read: a tree without one does not pay for it. */
let loaded: typeof Yaml | undefined;
export function yaml(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('yaml') as typeof Yaml);
}
export const DATA_EXTENSIONS = ['.hcl', '.json', '.yaml', '.yml'] as const;

/** The file of a level, or undefined when it has none; two files for one level are a problem. */
export function findLevelFile(root: string, level: string): string | undefined {
  const base = path.join(root, DATA_DIR, level);
  const found = DATA_EXTENSIONS.map((ext) => base + ext).filter((file) => fs.existsSync(file));
  if (found.length > 1) throw new UserError({ file: found[1], message: `level "${level}" has two data files, ${found.map((f) => path.basename(f)).join(' and ')}: keep one` });
  return found[0];
}

export function readDataFile(file: string): DataFile {
  return parseDataText(file, readSourceFile(file));
}

/** A data file's text, as it is or about to be written (`govern secret set` checks what it writes). */
export function parseDataText(file: string, text: string): DataFile {
  if (!file.endsWith('.hcl')) return parseDataYaml(file, text);
  const spans: ValueSpans = new Map();
  const data = hclDataFile(file, parseHcl(file, text, spans));
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return { ...data, keyLines: new Map([...spans].map(([key, span]) => [key, lineOf(span.start)])) };
}

function parseDataYaml(file: string, text: string): DataFile {
  const { LineCounter, parseDocument, isMap, isScalar } = yaml();
  const counter = new LineCounter();
  // The core schema (YAML 1.2): no dates or other types a value could not be as HCL.
  const doc = parseDocument(text, { lineCounter: counter, schema: file.endsWith('.json') ? 'json' : 'core', uniqueKeys: true, prettyErrors: false });
  const at = (offset: number | undefined): { line?: number } => (offset === undefined ? {} : { line: counter.linePos(offset).line });
  if (doc.errors.length > 0) {
    throw new UserError(doc.errors.map((e) => ({ file, ...at(e.pos[0]), message: e.message.split('\n')[0] })));
  }
  const lines = new Map<string, number>();
  if (doc.contents === null) return { file, values: {}, lines };
  if (!isMap(doc.contents)) throw new UserError({ file, line: at(doc.contents.range?.[0]).line, message: 'a data file holds a map of keys at its top level (key: value)' });
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.range) lines.set(String(pair.key.value), counter.linePos(pair.key.range[0]).line);
  }
  const problems: Problem[] = [];
  const values = toValues(doc, file, lines, problems);
  if (problems.length > 0) throw new UserError(problems);
  const keyLines = new Map<string, number>();
  const walk = (map: Yaml.YAMLMap, prefix: string): void => {
    for (const pair of map.items) {
      if (!isScalar(pair.key) || !pair.key.range) continue;
      const key = `${prefix}${String(pair.key.value)}`;
      keyLines.set(key, counter.linePos(pair.key.range[0]).line);
      if (isMap(pair.value)) walk(pair.value, `${key}/`);
    }
  };
  walk(doc.contents, '');
  return { file, values, lines, keyLines };
}

function toValues(doc: Yaml.Document, file: string, lines: Map<string, number>, problems: Problem[]): { [key: string]: AttrValue } {
  const js = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  const out: [string, AttrValue][] = [];
  for (const [key, value] of Object.entries(js)) {
    const why = notAValue(value);
    if (why) problems.push({ file, line: lines.get(key), message: `${key}: ${why}` });
    else out.push([key, value as AttrValue]);
  }
  return Object.fromEntries(out);
}

/** Why a decoded value is not one govern can carry (strings, finite numbers, booleans, null, lists, maps). */
function notAValue(value: unknown): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'a number is out of range';
  if (Array.isArray(value)) return value.map(notAValue).find((why) => why !== undefined);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).map(notAValue).find((why) => why !== undefined);
  return `holds ${typeof value === 'object' ? (value as object).constructor?.name ?? 'an object' : typeof value}, which is not a string, number, boolean, list or map`;
}
