// Every data key a tree's data files set, with where: for `{{data "` completion and for going from
// a key to the levels that set it. Every file under data/ is read, not only the levels one host's
// facts choose: an editor shows the tree, whichever host the key is looked up for.
import fs from 'node:fs';
import path from 'node:path';
import { DATA_EXTENSIONS, readDataFile } from '../data/data-files.js';
import { DATA_DIR } from '../data/hierarchy.js';
import { isDataMap } from '../data/merge.js';
import type { AttrValue } from '../shared/protocol.js';

export interface DataKeyPlace {
  /** The level, as hierarchy.hcl names it: the file's path under data/ without its extension. */
  level: string;
  file: string;
  /** 1-based; undefined where the format does not tell it. */
  line?: number;
}

/** Bounds the walk and the keys of a tree given by mistake. */
const MAX_FILES = 10_000;
const MAX_KEYS = 100_000;

export function dataKeys(root: string): Map<string, DataKeyPlace[]> {
  const keys = new Map<string, DataKeyPlace[]>();
  const top = path.join(root, DATA_DIR);
  for (const file of dataFiles(top)) {
    let data;
    try {
      data = readDataFile(file, root);
    } catch {
      continue; // its problem is check's to tell
    }
    const level = path.relative(top, file).replace(/\.[^./]+$/, '');
    const add = (key: string, line: number | undefined) => {
      if (keys.size >= MAX_KEYS && !keys.has(key)) return;
      keys.set(key, [...(keys.get(key) ?? []), { level, file, ...(line !== undefined ? { line } : {}) }]);
    };
    for (const [key, value] of Object.entries(data.values)) {
      const line = data.lines.get(key);
      add(key, line);
      nested(key, value, (sub) => add(sub, data.keyLines?.get(sub) ?? line));
    }
  }
  return keys;
}

function nested(prefix: string, value: AttrValue, add: (key: string) => void): void {
  if (!isDataMap(value)) return;
  for (const [k, v] of Object.entries(value)) {
    add(`${prefix}/${k}`);
    nested(`${prefix}/${k}`, v, add);
  }
}

function dataFiles(dir: string): string[] {
  const found: string[] = [];
  const pending = [dir];
  for (let next = pending.pop(); next !== undefined && found.length < MAX_FILES; next = pending.pop()) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(next, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(next, e.name);
      if (e.isDirectory()) pending.push(full);
      else if (e.isFile() && DATA_EXTENSIONS.some((ext) => e.name.endsWith(ext))) found.push(full);
    }
  }
  return found.sort();
}
