// JSON as the json runner reads and edits it: strict JSON (no comments, no trailing commas), parsed
// for its data by JSON.parse and for where an error is by jsonc-parser, whose modify() changes only
// the text of the key it is given: every other byte stays, and what it inserts is indented as the
// document is (its first indented line: tabs, or that many spaces).
import { applyEdits, modify, parse, printParseErrorCode, type FormattingOptions, type ParseError } from 'jsonc-parser';
import type { DocFormat } from '../lib/doc-edit/decide-doc.js';
import type { Tree } from '../lib/doc-edit/tree.js';

export const jsonFormat: DocFormat = {
  name: 'JSON',
  parse: parseJson,
  edit(text, before, path, value, after) {
    if (text.trim() === '') return `${JSON.stringify(after, null, 2)}\n`;
    const edits = modify(text, jsonPath(before, path), value, { formattingOptions: formatting(text) });
    return applyEdits(text, edits);
  },
};

function parseJson(text: string): Tree {
  if (text.trim() === '') return undefined;
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0) throw new Error(`${where(text, errors[0].offset)}: ${printParseErrorCode(errors[0].error)}`);
  try {
    return JSON.parse(text) as Tree;
  } catch {
    throw new Error('JSON.parse refused it');
  }
}

/** "line 3, column 5". */
function where(text: string, offset: number): string {
  const upTo = text.slice(0, offset);
  const line = upTo.split('\n').length;
  return `line ${line}, column ${offset - (upTo.lastIndexOf('\n') + 1) + 1}`;
}

/** The segments as jsonc-parser names them: an index of a list as a number. */
function jsonPath(tree: Tree, path: readonly string[]): (string | number)[] {
  let node: unknown = tree;
  return path.map((segment) => {
    const inList = Array.isArray(node);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
    return inList ? Number(segment) : segment;
  });
}

function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const tabs = indent.startsWith('\t');
  return { insertSpaces: !tabs, tabSize: tabs ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}
