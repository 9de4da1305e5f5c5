// Document symbols: one per resource the file declares, as the last check planned them (a block in
// a template loop is each resource it makes, named by its RREF), else, when nothing of the file was
// planned (it does not render or parse yet), one per top-level block as written. A tree's health
// checks are no resources: each `health` block is listed as written, `health:NAME`, in both cases.
import path from 'node:path';
import type { DocumentSymbol } from 'vscode-languageserver';
import { MODULE_BLOCK } from '../state/modules/declarations.js';
import { topBlocks } from './scan.js';
import type { Tree } from './trees.js';

// The protocol's SymbolKind numbers.
const OBJECT = 19;
const MODULE = 2;
const EVENT = 24;
const HEALTH_BLOCK = 'health';

export function documentSymbols(tree: Tree, file: string, text: string): DocumentSymbol[] {
  const lines = text.split('\n');
  const full = path.resolve(file);
  const planned = [...tree.resources.values()].filter((r) => path.resolve(r.at.file) === full && r.at.line !== undefined && r.module === undefined);
  const symbols = planned.map((r) => symbol(lines, r.ref, r.type, r.at.line! - 1));
  const blocks = topBlocks(text);
  const asWritten = (type: string) => blocks.filter((b) => b.type === type).map((b) => symbol(lines, `${type}:${b.labels[0] ?? ''}`, type, b.line));
  if (planned.length > 0) return [...symbols, ...asWritten(MODULE_BLOCK), ...asWritten(HEALTH_BLOCK)];
  return blocks.map((b) => symbol(lines, b.labels.length > 0 ? `${b.type}:${b.labels[0]}` : b.type ?? '', b.type ?? '', b.line));
}

function symbol(lines: string[], name: string, type: string, line: number): DocumentSymbol {
  let end = line;
  while (end < lines.length - 1 && !/^}/.test(lines[end]) && !(end > line && /^\S/.test(lines[end]) && !/^[}{]/.test(lines[end]))) end++;
  if (!/^}/.test(lines[end] ?? '')) end = line;
  const range = { start: { line, character: 0 }, end: { line: end, character: (lines[end] ?? '').length } };
  const header = { start: { line, character: 0 }, end: { line, character: (lines[line] ?? '').length } };
  return { name, detail: type, kind: type === MODULE_BLOCK ? MODULE : type === HEALTH_BLOCK ? EVENT : OBJECT, range, selectionRange: header };
}
