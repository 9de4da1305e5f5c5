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
    const keys = jsonPath(before, path);
    const bare = modify(text, keys, value, {});
    const formatted = applyEdits(text, modify(text, keys, value, { formattingOptions: formatting(text) }));
    // The formatter may lay out again what shares a line with the edit (a list): then the edit unformatted.
    if (bare.every((e) => keeps(text, formatted, e.offset, e.offset + e.length))) return formatted;
    // A key added after the last one: on a line of its own, indented as the line it follows.
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    return applyEdits(
      text,
      bare.map((e) => {
        const line = text.slice(text.lastIndexOf('\n', e.offset - 1) + 1, e.offset);
        const indent = /^[ \t]*/.exec(line)![0];
        return e.length === 0 && e.content.startsWith(',') && text.includes('\n') && indent !== line ? { ...e, content: `,${eol}${indent}${e.content.slice(1)}` } : e;
      }),
    );
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

/** Whether `edited` has every byte of `text` before `from` and after `to`. */
function keeps(text: string, edited: string, from: number, to: number): boolean {
  return edited.startsWith(text.slice(0, from)) && edited.endsWith(text.slice(to)) && edited.length >= from + text.length - to;
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
