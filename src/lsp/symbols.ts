// Document symbols: one per resource the file declares, as the last check planned them (a block in
// a template loop is each resource it makes, named by its RREF), else, when nothing of the file was
// planned (it does not render or parse yet), one per top-level block as written.
import path from 'node:path';
import type { DocumentSymbol } from 'vscode-languageserver';
import { MODULE_BLOCK } from '../state/modules/declarations.js';
import { topBlocks } from './scan.js';
import type { Tree } from './trees.js';

// The protocol's SymbolKind numbers.
const OBJECT = 19;
const MODULE = 2;

export function documentSymbols(tree: Tree, file: string, text: string): DocumentSymbol[] {
  const lines = text.split('\n');
  const full = path.resolve(file);
  const planned = [...tree.resources.values()].filter((r) => path.resolve(r.at.file) === full && r.at.line !== undefined && r.module === undefined);
  const symbols = planned.map((r) => symbol(lines, r.ref, r.type, r.at.line! - 1));
  const instances = topBlocks(text).filter((b) => b.type === MODULE_BLOCK);
  if (planned.length > 0) return [...symbols, ...instances.map((b) => symbol(lines, `module:${b.labels[0] ?? ''}`, MODULE_BLOCK, b.line))];
  return topBlocks(text).map((b) => symbol(lines, b.labels.length > 0 ? `${b.type}:${b.labels[0]}` : b.type ?? '', b.type ?? '', b.line));
}

function symbol(lines: string[], name: string, type: string, line: number): DocumentSymbol {
  let end = line;
  while (end < lines.length - 1 && !/^}/.test(lines[end]) && !(end > line && /^\S/.test(lines[end]) && !/^[}{]/.test(lines[end]))) end++;
  if (!/^}/.test(lines[end] ?? '')) end = line;
  const range = { start: { line, character: 0 }, end: { line: end, character: (lines[end] ?? '').length } };
  const header = { start: { line, character: 0 }, end: { line, character: (lines[line] ?? '').length } };
  return { name, detail: type, kind: type === MODULE_BLOCK ? MODULE : OBJECT, range, selectionRange: header };
}
