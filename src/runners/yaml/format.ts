// YAML as the yaml runner reads and edits it, through the yaml library's Document API (one
// document; a duplicate key, an error or a second document refused). The change is made in the
// text where the nodes' source ranges allow it, so that every other byte stays: a value replaced
// in place (in flow style, a string keeping its quotes), a missing key added as block lines after
// the last entry of its map (indented as that map is), a key's lines removed. Anything else (a flow
// collection, a list item added or removed, a map left empty) is the library's own setIn or deleteIn
// and its writing of the document, which keeps comments and order but not every space.
import { isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Node, type Pair, type Scalar } from 'yaml';
import type { DocFormat } from '../lib/doc-edit/decide-doc.js';
import { sameTree, type Tree } from '../lib/doc-edit/tree.js';

type Doc = Document.Parsed;

export const yamlFormat: DocFormat = {
  name: 'YAML',
  parse(text) {
    return toTree(parsedDocument(text));
  },
  edit(text, _before, path, value, after) {
    const doc = parsedDocument(text);
    const spliced = splice(text, doc, path, value);
    if (spliced !== undefined && sameData(spliced, after)) return spliced;
    return rewritten(doc, path, value);
  },
};

function parsedDocument(text: string): Doc {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const problem = doc.errors[0];
  // The first line of the library's message: "... at line 2, column 1".
  if (problem) throw new Error(problem.message.split(':\n')[0]);
  return doc;
}

function toTree(doc: Doc): Tree {
  const data = doc.toJS({ maxAliasCount: 100 }) as Tree;
  return data === null && doc.contents === null ? undefined : data;
}

function sameData(text: string, after: Tree): boolean {
  try {
    return sameTree(toTree(parsedDocument(text)), after);
  } catch {
    return false;
  }
}

/** What the library makes of the change: comments and order kept, its own layout. */
function rewritten(doc: Doc, path: readonly string[], value: unknown): string {
  const keys = libraryPath(doc, path);
  if (value === undefined) doc.deleteIn(keys);
  else doc.setIn(keys, doc.createNode(value));
  return doc.toString({ lineWidth: 0 });
}

/** The path as the library names it: an item of a list by its number. */
function libraryPath(doc: Doc, path: readonly string[]): unknown[] {
  let node: unknown = doc.contents;
  return path.map((segment) => {
    const inList = isSeq(node);
    node = inList ? (node as { items: unknown[] }).items[Number(segment)] : isMap(node) ? node.get(segment, true) : undefined;
    return inList ? Number(segment) : segment;
  });
}

interface Found {
  /** The deepest node the path reaches, and how many segments that took. */
  node: Node | null;
  depth: number;
  /** The pair that holds `node` in its map, when it is a map's value. */
  pair?: Pair;
  /** The map of that pair. */
  map?: Node;
}

function walk(doc: Doc, path: readonly string[]): Found {
  let found: Found = { node: doc.contents, depth: 0 };
  for (const segment of path) {
    const node = found.node;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (!pair) break;
      found = { node: pair.value as Node | null, depth: found.depth + 1, pair, map: node };
    } else if (isSeq(node) && /^[0-9]+$/.test(segment) && Number(segment) < node.items.length) {
      found = { node: node.items[Number(segment)] as Node | null, depth: found.depth + 1 };
    } else break;
  }
  return found;
}

/** The edit in the text, or undefined where the ranges do not allow one. */
function splice(text: string, doc: Doc, path: readonly string[], value: unknown): string | undefined {
  const found = walk(doc, path);
  if (found.depth === path.length) {
    if (value === undefined) return removePair(text, found);
    const node = found.node;
    if (!node?.range || node.range[0] === node.range[1]) return undefined;
    const flow = stringify(value, { lineWidth: 0, blockQuote: false, collectionStyle: 'flow', defaultStringType: quoting(node) }).trimEnd();
    if (flow.includes('\n')) return undefined;
    return text.slice(0, node.range[0]) + flow + text.slice(node.range[1]);
  }
  if (value === undefined) return undefined;
  const rest = path.slice(found.depth).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
  const lines = stringify(rest, { lineWidth: 0 });
  if (found.node === null && found.depth === 0) return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${lines}`;
  const map = found.node;
  if (!isMap(map) || map.flow || map.items.length === 0 || !map.range) return undefined;
  const first = (map.items[0].key as Node | null)?.range?.[0];
  if (first === undefined) return undefined;
  const indent = first - (text.lastIndexOf('\n', first - 1) + 1);
  if (text.slice(first - indent, first).trim() !== '') return undefined;
  let at = map.range[1];
  let before = '';
  if (text[at - 1] !== '\n') {
    const nl = text.indexOf('\n', at);
    if (nl < 0) [at, before] = [text.length, '\n'];
    else at = nl + 1;
  }
  const indented = lines.replace(/^(?=.)/gm, ' '.repeat(indent));
  return text.slice(0, at) + before + indented + text.slice(at);
}

/** A block map's key removed with its value and the rest of their last line. */
function removePair(text: string, found: Found): string | undefined {
  const { pair, map } = found;
  if (!pair || !isMap(map) || map.flow) return undefined;
  const start = (pair.key as Node | null)?.range?.[0];
  const end = (pair.value as Node | null)?.range?.[2] ?? (pair.key as Node | null)?.range?.[2];
  if (start === undefined || end === undefined) return undefined;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (text.slice(lineStart, start).trim() !== '') return undefined;
  let stop = end;
  if (text[stop - 1] !== '\n') {
    const nl = text.indexOf('\n', stop);
    stop = nl < 0 ? text.length : nl + 1;
  }
  return text.slice(0, lineStart) + text.slice(stop);
}

/** A string written where a quoted one was keeps its quotes. */
function quoting(node: Node): 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' {
  const type = isScalar(node) ? (node as Scalar).type : undefined;
  return type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE' ? type : 'PLAIN';
}
