// Go to definition: from an RREF in before/after/notify/subscribe to the block that declares the
// resource (as the last check planned it: a name a template made is found too); from a module
// instance (its header or its `source`) to the module's files; from `{{data "KEY"}}` to every level
// whose data file sets the key.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location } from 'vscode-languageserver';
import { MODULE_BLOCK, SOURCE_KEY } from '../state/modules/declarations.js';
import { moduleNames, readModule } from '../state/modules/module-tree.js';
import { ORDERING_KEYS } from '../state/resource.js';
import { moduleOf } from './completion.js';
import { placeAt, stringAt } from './scan.js';
import type { Tree } from './trees.js';

export function definition(tree: Tree, text: string, offset: number): Location[] {
  const place = placeAt(text, offset);
  if (place.template !== undefined) return dataKeyAt(tree, text, offset);
  const quoted = stringAt(text, offset);
  const block = place.blocks[place.blocks.length - 1];
  if (quoted !== undefined && place.key !== undefined && (ORDERING_KEYS as readonly string[]).includes(place.key)) {
    // notify and subscribe may name a signal after the RREF: `service:nginx:reload`.
    const r = tree.resources.get(quoted) ?? tree.resources.get(quoted.replace(/:[^:]*$/, ''));
    return r ? [at(r.at.file, r.at.line)] : [];
  }
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(lineStart, text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset));
  if (block?.type === MODULE_BLOCK && place.key === SOURCE_KEY && quoted !== undefined) return moduleFiles(tree, quoted);
  if (block === undefined && new RegExp(`^\\s*${MODULE_BLOCK}\\s+"`).test(line)) {
    const header = placeAt(text, text.indexOf('{', offset) < 0 ? text.length : text.indexOf('{', offset) + 1).blocks.at(-1);
    return header ? moduleFiles(tree, moduleOf(text, header)) : [];
  }
  return [];
}

/** The key of the `data "KEY"` call around the offset, and every level that sets it. */
function dataKeyAt(tree: Tree, text: string, offset: number): Location[] {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd);
  for (const m of line.matchAll(/\bdata\s+"([^"]*)"/g)) {
    const from = lineStart + m.index!;
    if (offset < from || offset > from + m[0].length) continue;
    return (tree.dataKeys().get(m[1]) ?? []).map((p) => at(p.file, p.line));
  }
  return [];
}

function moduleFiles(tree: Tree, name: string | undefined): Location[] {
  if (name === undefined || !moduleNames(tree.root).includes(name)) return [];
  try {
    const module = readModule(tree.root, name);
    const variables = module.variables[0]?.at;
    if (variables) return [at(variables.file, variables.line)];
    return module.files.slice(0, 1).map((f) => at(f.file, 1));
  } catch {
    return [at(path.join(tree.root, 'modules', name), 1)];
  }
}

function at(file: string, line: number | undefined): Location {
  const position = { line: Math.max(0, (line ?? 1) - 1), character: 0 };
  return { uri: pathToFileURL(path.resolve(file)).href, range: { start: position, end: position } };
}
