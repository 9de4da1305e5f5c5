// Formatting through `govern fmt`'s layout (src/fmt/): the editor's text, as fmt would write the file,
// as one edit; a text fmt leaves as it is gives no edit and the reason, which the server shows.
import type { TextEdit } from 'vscode-languageserver';
import { isTemplated } from '../fmt/files.js';
import { formatText } from '../fmt/format.js';

export type Formatting = { edits: TextEdit[] } | { edits: []; reason: string };

export function formatDocument(file: string, text: string): Formatting {
  const result = formatText(file, text, isTemplated(file));
  if (!result.ok) return { edits: [], reason: `${file}:${result.line}: ${result.reason}` };
  if (result.text === text) return { edits: [] };
  const lines = text.split('\n');
  const end = { line: lines.length - 1, character: lines[lines.length - 1].length };
  return { edits: [{ range: { start: { line: 0, character: 0 }, end }, newText: result.text }] };
}
