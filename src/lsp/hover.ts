// Hover: on a block's runner word, what the runner manages and its documentation page; on a key of a
// resource block, the key's type, allowed values, default and help (from the runner's description,
// or govern's own keys'), with the page; on a module block's parameter, its declaration.
import { pathToFileURL } from 'node:url';
import type { Hover } from 'vscode-languageserver';
import { MODULE_BLOCK } from '../state/modules/declarations.js';
import { keySummary, runnerDocPage } from './catalog.js';
import { keySpec, moduleOf, moduleParams, paramSummary } from './completion.js';
import { placeAt, wordAt } from './scan.js';
import type { Tree } from './trees.js';

export async function hover(tree: Tree, text: string, offset: number): Promise<Hover | null> {
  const { word, start } = wordAt(text, offset);
  if (word === '') return null;
  const place = placeAt(text, start);
  const lineEnd = text.indexOf('\n', start) < 0 ? text.length : text.indexOf('\n', start);
  const after = text.slice(start + word.length, lineEnd);
  if (!place.atLineStart) return null;
  const block = place.blocks[place.blocks.length - 1];
  if (block === undefined && /^\s+"/.test(after)) {
    if (word === MODULE_BLOCK) return markdown(['**module**: an instance of a module of the tree (`modules/NAME/`)']);
    const runner = await tree.catalog.runner(word);
    if (!runner) return null;
    const keys = Object.entries(runner.description?.keys ?? {}).map(([k, spec]) => `- \`${k}\`: ${keySummary(spec)}`);
    return markdown([`**${word}** (runner ${runner.executable})`, runner.description?.help ?? 'it does not describe itself', ...page(word), keys.join('\n')]);
  }
  if (block === undefined || place.blocks.length > 1 || !/^\s*=/.test(after)) return null;
  if (block.type === MODULE_BLOCK) {
    const v = moduleParams(tree, moduleOf(text, block)).find((p) => p.name === word);
    return v ? markdown([`**${v.name}**: ${paramSummary(v)}`, v.description ?? '']) : null;
  }
  const spec = await keySpec(tree, block.type, word);
  if (!spec) return null;
  return markdown([`**${word}** (${block.type}): ${keySummary(spec)}`, spec.help ?? '', ...page(block.type ?? '')]);
}

function page(runner: string): string[] {
  const file = runnerDocPage(runner);
  return file !== undefined ? [`[docs/${runner}.md](${pathToFileURL(file).href})`] : [];
}

function markdown(parts: string[]): Hover {
  return { contents: { kind: 'markdown', value: parts.filter((p) => p !== '').join('\n\n') } };
}
