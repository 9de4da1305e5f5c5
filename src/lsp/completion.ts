// Completion from what govern knows: at the top level, runner names (and `module`); in a resource
// block, its runner's keys and govern's own, with their types and help; after `KEY =`, the key's
// allowed values and default; in before/after/notify/subscribe, the RREFs of the tree's resources;
// in a module block, `source`'s module names and the module's parameters; after `{{fact "`, fact
// names; after `{{data "`, the data keys the tree's data files set; in a health block, its keys.
import type { CompletionItem, Range } from 'vscode-languageserver';
import { HEALTH_BLOCK, healthKeys } from '../checks/kinds.js';
import type { KeySpec } from '../shared/description.js';
import { MODULE_BLOCK, SOURCE_KEY, VARIABLE_BLOCK, type VariableDecl } from '../state/modules/declarations.js';
import { moduleNames, readModule } from '../state/modules/module-tree.js';
import { ORDERING_KEYS } from '../state/resource.js';
import { CORE_KEYS, keySummary, runnerDocPage } from './catalog.js';
import { placeAt, type BlockFrame } from './scan.js';
import type { Tree } from './trees.js';

// The protocol's CompletionItemKind numbers (the types package holds them as values, not types).
const KIND = { module: 9, property: 10, value: 12, keyword: 14, reference: 18, constant: 21, variable: 6, field: 5, class: 7 } as const;

const HEALTH_TUNING: Record<string, string> = { timeout: 'how long one attempt may take ("10s")', retries: 'how many more attempts a failure gets' };

interface Where {
  /** 0-based line and character of the position. */
  line: number;
  character: number;
}

export async function complete(tree: Tree, text: string, offset: number, at: Where): Promise<CompletionItem[]> {
  const place = placeAt(text, offset);
  const replacing = (length: number): Range => ({ start: { line: at.line, character: at.character - length }, end: at });
  const edit = (item: CompletionItem, newText: string, length: number): CompletionItem => ({ ...item, textEdit: { range: replacing(length), newText } });
  if (place.template !== undefined) {
    const fact = /\bfact\s+"([^"]*)$/.exec(place.template);
    if (fact) return (await tree.catalog.factNames()).map((name) => edit({ label: name, kind: KIND.variable, detail: 'fact' }, name, fact[1].length));
    const data = /\bdata\s+"([^"]*)$/.exec(place.template);
    if (data) {
      return [...tree.dataKeys()].map(([key, places]) =>
        edit({ label: key, kind: KIND.field, detail: 'data key', documentation: `set in ${places.map((p) => `${p.level}`).join(', ')}` }, key, data[1].length),
      );
    }
    return [];
  }
  const block = place.blocks[place.blocks.length - 1];
  if (place.key !== undefined && block !== undefined) {
    if ((ORDERING_KEYS as readonly string[]).includes(place.key) && block.type !== MODULE_BLOCK) {
      if (place.string === undefined) return [];
      return [...tree.resources.values()].map((r) => edit({ label: r.ref, kind: KIND.reference, detail: `${r.type} resource` }, r.ref, place.string!.length));
    }
    if (block.type === MODULE_BLOCK && place.key === SOURCE_KEY) {
      return moduleNames(tree.root).map((name) => withQuotes(edit({ label: name, kind: KIND.module, detail: 'module' }, name, place.string?.length ?? 0), place.string));
    }
    const spec = block.type === MODULE_BLOCK ? undefined : await keySpec(tree, block.type, place.key);
    return spec ? valueItems(spec, place.string, replacing) : [];
  }
  if (!place.atLineStart) return [];
  const length = place.word.length;
  if (block === undefined) {
    const runners = await tree.catalog.runnerMap();
    const items: CompletionItem[] = [...runners.values()].map((r) =>
      edit({ label: r.name, kind: KIND.class, detail: r.description?.help ?? 'runner', documentation: docsLine(r.name) }, r.name, length),
    );
    items.push(edit({ label: MODULE_BLOCK, kind: KIND.keyword, detail: 'an instance of a module of the tree (docs/modules.md)' }, MODULE_BLOCK, length));
    items.push(edit({ label: HEALTH_BLOCK, kind: KIND.keyword, detail: 'a check run after every real run (docs/rollout.md)' }, HEALTH_BLOCK, length));
    return items;
  }
  if (place.blocks.length > 1 || block.type === VARIABLE_BLOCK) return [];
  if (block.type === HEALTH_BLOCK) {
    return healthKeys().map(({ name, kind }) => edit({ label: name, kind: KIND.property, detail: kind ? `with ${kind}` : (HEALTH_TUNING[name] ?? 'what to check: one of these kinds per block') }, `${name} = `, length));
  }
  if (block.type === MODULE_BLOCK) {
    const params = moduleParams(tree, moduleOf(text, block));
    return [
      edit({ label: SOURCE_KEY, kind: KIND.property, detail: 'the module: a directory under modules/' }, `${SOURCE_KEY} = `, length),
      ...params.map((v) => edit({ label: v.name, kind: KIND.property, detail: paramSummary(v), documentation: v.description }, `${v.name} = `, length)),
    ];
  }
  const keys = { ...((await tree.catalog.runner(block.type ?? ''))?.description?.keys ?? {}), ...CORE_KEYS };
  return Object.entries(keys).map(([name, spec]) => edit({ label: name, kind: KIND.property, detail: keySummary(spec), documentation: spec.help }, `${name} = `, length));
}

/** A key of a resource block: its runner's description, or govern's own keys. */
export async function keySpec(tree: Tree, type: string | undefined, key: string): Promise<KeySpec | undefined> {
  if (Object.hasOwn(CORE_KEYS, key)) return CORE_KEYS[key];
  const keys = (await tree.catalog.runner(type ?? ''))?.description?.keys;
  return keys && Object.hasOwn(keys, key) ? keys[key] : undefined;
}

/** The module a module block names in its `source`, read from the block's lines as written. */
export function moduleOf(text: string, block: BlockFrame): string | undefined {
  const lines = text.split('\n');
  for (let i = block.line; i < lines.length && (i === block.line || !/^\s*}/.test(lines[i])); i++) {
    const m = /^\s*source\s*=\s*"([^"]*)"/.exec(i === block.line ? lines[i].slice(lines[i].indexOf('{') + 1) : lines[i]);
    if (m) return m[1];
  }
  return undefined;
}

export function moduleParams(tree: Tree, name: string | undefined): VariableDecl[] {
  if (name === undefined || !moduleNames(tree.root).includes(name)) return [];
  try {
    return readModule(tree.root, name).variables;
  } catch {
    return []; // the module's own problems are check's to tell
  }
}

export function paramSummary(v: VariableDecl): string {
  const values = v.values ? `: ${v.values.map((x) => JSON.stringify(x)).join(' | ')}` : '';
  return `${v.default === undefined ? 'required ' : ''}${v.type}${values}${v.default !== undefined ? `, default ${JSON.stringify(v.default)}` : ''}`;
}

export function docsLine(runner: string): string | undefined {
  const page = runnerDocPage(runner);
  return page !== undefined ? `docs: ${page}` : undefined;
}

/** A key's allowed values (an enum's words, a boolean's two), its default first, quoted unless inside a string already. */
function valueItems(spec: KeySpec, inString: string | undefined, replacing: (length: number) => Range): CompletionItem[] {
  const words: string[] = spec.type === 'boolean' ? ['true', 'false'] : [...(spec.values ?? [])];
  const def = spec.default !== undefined && !Array.isArray(spec.default) ? String(spec.default) : undefined;
  if (def !== undefined && !words.includes(def)) words.unshift(def);
  const quoted = spec.type !== 'boolean' && spec.type !== 'integer';
  return words.map((w, i) => {
    const isDefault = w === def;
    const newText = inString !== undefined || !quoted ? w : JSON.stringify(w);
    return {
      label: w,
      kind: isDefault ? KIND.constant : KIND.value,
      detail: isDefault ? 'default' : keySummary(spec),
      documentation: spec.help,
      sortText: `${isDefault ? 0 : 1}${String(i).padStart(4, '0')}`,
      textEdit: { range: replacing(inString?.length ?? 0), newText },
    };
  });
}

function withQuotes(item: CompletionItem, inString: string | undefined): CompletionItem {
  if (inString !== undefined || !item.textEdit || !('range' in item.textEdit)) return item;
  return { ...item, textEdit: { ...item.textEdit, newText: JSON.stringify(item.textEdit.newText) } };
}
