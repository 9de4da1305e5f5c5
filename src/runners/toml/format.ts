// TOML as the toml runner reads and edits it, through @decimalturn/toml-patch (a maintained TOML
// 1.0 parser and writer that keeps comments, whitespace and order): the document parsed, the data
// changed, and the library's patch() writes only what differs into the text as it was. The library
// is an ES module: it is imported when a toml resource is first applied, so that nothing else loads it.
import type { DocFormat } from '../lib/doc-edit/decide-doc.js';
import type { Tree } from '../lib/doc-edit/tree.js';

interface TomlLibrary {
  parse(text: string): unknown;
  patch(existing: string, updated: unknown): string;
  stringify(value: unknown): string;
}

let loaded: TomlLibrary | undefined;

export async function tomlFormat(): Promise<DocFormat> {
  loaded ??= (await import('@decimalturn/toml-patch')) as unknown as TomlLibrary;
  const library = loaded;
  return {
    name: 'TOML',
    parse(text): Tree {
      if (text.trim() === '') return undefined;
      try {
        return library.parse(text);
      } catch (e) {
        throw new Error(problem((e as Error).message));
      }
    },
    edit(text, _before, _path, _value, after) {
      // An empty document has nothing to keep.
      if (text.trim() === '') return library.stringify(after);
      return library.patch(text, after);
    },
    refuse(value) {
      return hasNull(value) ? 'TOML has no null: give a value, or ensure = "absent" to remove the key' : undefined;
    },
  };
}

/**
 * The library's message without the line it quotes (a file others cannot read must not reach the
 * report): "Error parsing TOML (1, 5):\na = \n    ^\nExpected value" -> "line 1, column 5: Expected value".
 */
function problem(message: string): string {
  const at = /\((\d+), (\d+)\)/.exec(message);
  const last = message.trimEnd().split('\n').at(-1) ?? message;
  return at ? `line ${at[1]}, column ${at[2]}: ${last}` : last;
}

function hasNull(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some(hasNull);
  if (typeof value === 'object') return Object.values(value as object).some(hasNull);
  return false;
}
