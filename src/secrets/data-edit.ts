// Writing an encrypted value into a data file by editing the parsed document, never by searching
// its text: an HCL value by its position (the parser records where each value was written), a YAML
// value through `yaml`'s Document (its node's range, or setIn for a key it adds inside a map), so
// `git diff` shows the one value. A new top-level key goes at the end; JSON is written again whole
// when a key is added. The result is parsed before it replaces the file (atomically).
import fs from 'node:fs';
import path from 'node:path';
import type * as Yaml from 'yaml';
import { parseDataText, yaml } from '../data/data-files.js';
import { findKey } from '../data/lookup.js';
import { isDataMap } from '../data/merge.js';
import { parseHcl, type ValueSpans } from '../hcl/parse.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';

/** The file's text with KEY set to the string `value`. */
export function withValue(file: string, text: string, key: string, value: string): string {
  const data = parseDataText(file, text);
  // A top-level key written whole ("nginx_site/port") is set whole; else the path is dug into maps.
  const path = Object.hasOwn(data.values, key) ? [key] : key.split('/');
  const found = findKey(data, key);
  const refuse = (why: string) => new UserError({ file, line: data.lines.get(path[0]), message: `cannot set "${key}": ${why}` });
  if (found !== undefined && typeof found.value !== 'string') throw refuse(`it holds ${Array.isArray(found.value) ? 'a list' : isDataMap(found.value) ? 'a map' : 'a value that is not a string'}, not a string: change it by hand`);
  // The longest prefix of the path the file has: it must be a map to take the rest.
  let depth = 0;
  for (let v: AttrValue = data.values; depth < path.length && isDataMap(v) && Object.hasOwn(v, path[depth]); depth++) v = v[path[depth]];
  if (found === undefined && depth > 0) {
    const holder = findKey(data, path.slice(0, depth).join('/'))!.value;
    if (!isDataMap(holder)) throw refuse(`"${path.slice(0, depth).join('/')}" is not a map`);
  }
  if (file.endsWith('.hcl')) return hclWith(file, text, path, depth, value);
  if (file.endsWith('.json') && found === undefined) return JSON.stringify(setPath(JSON.parse(text === '' ? '{}' : text) as AttrValue, path, value), null, 2) + '\n';
  return yamlWith(file, text, path, value);
}

function hclWith(file: string, text: string, path: string[], depth: number, value: string): string {
  const spans: ValueSpans = new Map();
  parseHcl(file, text, spans);
  const quoted = JSON.stringify(value);
  if (depth === path.length) {
    const span = spans.get(path.join('/'))!;
    return text.slice(0, span.start) + quoted + text.slice(span.end);
  }
  const entry = nested(path.slice(depth), quoted);
  if (depth === 0) return text + (text === '' || text.endsWith('\n') ? '' : '\n') + `${entry}\n`;
  const map = spans.get(path.slice(0, depth).join('/'))!;
  const close = map.end - 1; // the map's "}"
  const inner = text.slice(map.start + 1, close);
  if (!inner.includes('\n')) {
    // One line, { host = "db1" }: the new entry after the last one, separated by a comma.
    const body = inner.trim();
    return `${text.slice(0, map.start)}{ ${body === '' ? '' : `${body.replace(/,$/, '')}, `}${entry} }${text.slice(map.end)}`;
  }
  // Several lines: the new entry on its own line, indented as the map's first entry is.
  const lineStart = text.lastIndexOf('\n', close - 1) + 1;
  const indent = /^\n?([ \t]*)\S/m.exec(inner.replace(/^[^\n]*\n/, '\n'))?.[1] ?? '  ';
  const beforeClose = text.slice(lineStart, close);
  if (beforeClose.trim() === '') return `${text.slice(0, lineStart)}${indent}${entry}\n${text.slice(lineStart)}`;
  return `${text.slice(0, close)}\n${indent}${entry}\n${text.slice(close)}`;
}

/** `a = { b = "v" }` for the path [a, b]. */
function nested(path: string[], quoted: string): string {
  const name = (n: string) => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(n) ? n : JSON.stringify(n));
  return path.reduceRight((inner, n, i) => (i === path.length - 1 ? `${name(n)} = ${inner}` : `${name(n)} = { ${inner} }`), quoted);
}

function yamlWith(file: string, text: string, path: string[], value: string): string {
  const { parseDocument, isScalar, Scalar } = yaml();
  const doc = parseDocument(text, { schema: file.endsWith('.json') ? 'json' : 'core', uniqueKeys: true }) as Yaml.Document;
  const node = doc.getIn(path, true);
  const quoted = JSON.stringify(value);
  if (isScalar(node) && node.range) return text.slice(0, node.range[0]) + quoted + text.slice(node.range[1]);
  const scalar = new Scalar(value);
  scalar.type = 'QUOTE_DOUBLE';
  if (doc.contents === null) doc.contents = doc.createNode({}) as Yaml.Document['contents'];
  doc.setIn(path, scalar);
  return doc.toString({ lineWidth: 0 });
}

function setPath(root: AttrValue, path: string[], value: string): AttrValue {
  const top: Record<string, AttrValue> = isDataMap(root) ? root : {};
  let map = top;
  for (const name of path.slice(0, -1)) {
    if (!isDataMap(map[name])) map[name] = {};
    map = map[name] as Record<string, AttrValue>;
  }
  map[path[path.length - 1]] = value;
  return top;
}

/** Sets KEY in the data file, checking the new text reads back with the value. */
export function setDataValue(file: string, key: string, value: string): void {
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const after = withValue(file, before, key, value);
  const check = findKey(parseDataText(file, after), key);
  if (check?.value !== value) throw new Error(`${file}: setting "${key}" would not read back as written (a bug: the file is left as it was)`);
  const mode = fs.existsSync(file) ? fs.statSync(file).mode & 0o777 : 0o644;
  try {
    // A new host's or role's file: its directory under data/ may not exist yet.
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    writeFileAtomic(file, after, mode);
  } catch (e) {
    throw new UserError({ file, message: `cannot write the file: ${(e as Error).message}` });
  }
}

/** Every string value of a data file's values with its key path. */
export function stringLeaves(values: AttrValue, prefix = ''): [string, string][] {
  if (typeof values === 'string') return [[prefix, values]];
  if (isDataMap(values)) return Object.entries(values).flatMap(([k, v]) => stringLeaves(v, prefix === '' ? k : `${prefix}/${k}`));
  return [];
}

/** Each encrypted string of a data file's values -> its key path (a list's own key for its items). */
export function encryptedKeys(values: AttrValue, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (typeof values === 'string') {
    if (values.startsWith('ENC[')) into.set(values, prefix);
  } else if (Array.isArray(values)) for (const item of values) encryptedKeys(item, prefix, into);
  else if (isDataMap(values)) for (const [k, v] of Object.entries(values)) encryptedKeys(v, prefix === '' ? k : `${prefix}/${k}`, into);
  return into;
}
