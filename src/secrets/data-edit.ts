// Writing an encrypted value into a data file: only the value's text changes where it can be
// found once in the file (so `git diff` shows one line), a new top-level key is added at the end,
// and a JSON file is otherwise written again whole. The result is parsed before it replaces the
// file (atomically): a file govern cannot read back is never written.
import fs from 'node:fs';
import { parseDataText } from '../data/data-files.js';
import { findKey } from '../data/lookup.js';
import { isDataMap } from '../data/merge.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';

/** The file's text with KEY set to the string `value`. */
export function withValue(file: string, text: string, key: string, value: string): string {
  const data = parseDataText(file, text);
  const found = findKey(data, key);
  const quoted = JSON.stringify(value);
  if (found !== undefined && typeof found.value === 'string') {
    // The old value as written: quoted (HCL, JSON, YAML) or a plain YAML scalar.
    for (const old of [JSON.stringify(found.value), found.value]) {
      if (old !== '' && count(text, old) === 1) return text.replace(old, () => quoted);
    }
  }
  if (file.endsWith('.json')) return JSON.stringify(setPath(JSON.parse(text === '' ? '{}' : text) as AttrValue, key.split('/'), value), null, 2) + '\n';
  if (found === undefined && !Object.hasOwn(data.values, key.split('/')[0])) {
    const sep = text === '' || text.endsWith('\n') ? '' : '\n';
    return text + sep + newEntry(file, key.split('/'), quoted);
  }
  throw new UserError({ file, line: found ? data.lines.get(found.top) : data.lines.get(key.split('/')[0]), message: `cannot set "${key}" here by editing one line: write it by hand once (any string value), then set it again` });
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

function newEntry(file: string, path: string[], quoted: string): string {
  if (file.endsWith('.hcl')) return path.reduceRight((inner, name, i) => (i === 0 ? `${name} = ${inner}\n` : `{ ${name} = ${inner} }`), quoted);
  return path.map((name, i) => `${'  '.repeat(i)}${name}:${i === path.length - 1 ? ` ${quoted}` : ''}`).join('\n') + '\n';
}

function setPath(root: AttrValue, path: string[], value: string): AttrValue {
  const top: Record<string, AttrValue> = isDataMap(root) ? root : {};
  if (Object.hasOwn(top, path.join('/'))) return { ...top, [path.join('/')]: value };
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
  writeFileAtomic(file, after, mode);
}

/** Every string value of a data file's values with its key path. */
export function stringLeaves(values: AttrValue, prefix = ''): [string, string][] {
  if (typeof values === 'string') return [[prefix, values]];
  if (isDataMap(values)) return Object.entries(values).flatMap(([k, v]) => stringLeaves(v, prefix === '' ? k : `${prefix}/${k}`));
  return [];
}
