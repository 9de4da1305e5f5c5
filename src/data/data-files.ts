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

/** A level's file of the tree at `root` (read only inside it). */
export function readDataFile(file: string, root: string): DataFile {
  return parseDataText(file, readSourceFile(file, root));
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
  const { LineCounter, parseDocument, isMap, isScalar, visit } = yaml();
  const counter = new LineCounter();
  // The core schema (YAML 1.2): no dates or other types a value could not be as HCL.
  const doc = parseDocument(text, { lineCounter: counter, schema: file.endsWith('.json') ? 'json' : 'core', uniqueKeys: true, prettyErrors: false, intAsBigInt: true });
  const at = (offset: number | undefined): { line?: number } => (offset === undefined ? {} : { line: counter.linePos(offset).line });
  if (doc.errors.length > 0) {
    throw new UserError(doc.errors.map((e) => ({ file, ...at(e.pos[0]), message: e.message.split('\n')[0] })));
  }
  // A tag outside the core schema (`!vault`, `!!js/function`) would otherwise be dropped with a
  // warning and the text under it taken as the value: refused, every one at its line.
  const tagged: Problem[] = [];
  visit(doc, {
    Node(_key, node) {
      if (node.tag !== undefined && !CORE_TAGS.has(node.tag)) tagged.push({ file, ...at(node.range?.[0]), message: `tag ${shownTag(node.tag)}: a data file holds plain values of YAML's core schema (strings, numbers, booleans, null, lists and maps), with no other tag; an encrypted value is written ENC[...] (docs/secrets.md)` });
    },
  });
  if (tagged.length > 0) throw new UserError(tagged);
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

const YAML_TAG = 'tag:yaml.org,2002:';
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => YAML_TAG + name));
const shownTag = (tag: string) => (tag.startsWith(YAML_TAG) ? `!!${tag.slice(YAML_TAG.length)}` : tag);

/** Aliases a file may expand: past it, a few lines (an "alias bomb") would make gigabytes of values. */
export const MAX_YAML_ALIASES = 100;

function toValues(doc: Yaml.Document, file: string, lines: Map<string, number>, problems: Problem[]): { [key: string]: AttrValue } {
  let js: Record<string, unknown>;
  try {
    // Integers come as bigint, so that one a double cannot hold is refused rather than rounded.
    js = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) as Record<string, unknown>;
  } catch (e) {
    // yaml says so with a ReferenceError ("resource exhaustion attack").
    if (!(e instanceof ReferenceError)) throw e;
    throw new UserError({ file, message: `its aliases (*name) expand to too many values (past ${MAX_YAML_ALIASES} expansions): govern refuses a file whose aliases multiply` });
  }
  const out: [string, AttrValue][] = [];
  for (const [key, value] of Object.entries(js)) {
    const exact = exactNumbers(value);
    const why = notAValue(exact);
    if (why) problems.push({ file, line: lines.get(key), message: `${key}: ${why}` });
    else out.push([key, exact as AttrValue]);
  }
  return Object.fromEntries(out);
}

/** The value with each integer (a bigint) a number, or left a bigint where a number cannot hold it exactly. */
function exactNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(exactNumbers);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, exactNumbers(v)]));
  }
  return value;
}

/** Why a decoded value is not one govern can carry (strings, finite numbers, booleans, null, lists, maps). */
function notAValue(value: unknown): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'a number is out of range';
  if (typeof value === 'bigint') return `the integer ${value} is larger than a number can hold exactly (${Number.MAX_SAFE_INTEGER}): quote it as a string`;
  if (Array.isArray(value)) return value.map(notAValue).find((why) => why !== undefined);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).map(notAValue).find((why) => why !== undefined);
  return `holds ${typeof value === 'object' ? (value as object).constructor?.name ?? 'an object' : typeof value}, which is not a string, number, boolean, list or map`;
}
