// One file's text in the canonical layout, or the reason it is left as it is. The layout changes
// blanks only, and this is checked rather than trusted: the tokens of the result, with the blanks
// that matter (line ends, and whether a template expression touches its neighbour), are the
// original's; a file without templates also parses to the same items before and after.
import { isDeepStrictEqual } from 'node:util';
import { parseHcl } from '../hcl/parse.js';
import type { HclItem } from '../hcl/syntax.js';
import { UserError } from '../shared/errors.js';
import { layout } from './layout.js';
import { lex, Unformattable, type Token } from './lex.js';

export type Formatted = { ok: true; text: string } | { ok: false; line: number; reason: string };

/** `templated`: the file renders as a template (a state file, hierarchy.hcl), not a data file. */
export function formatText(file: string, text: string, templated: boolean): Formatted {
  const plain = !templated || !text.includes('{{');
  let before: unknown;
  if (plain) {
    try {
      before = items(parseHcl(file, text).items);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      const p = e.problems[0];
      return { ok: false, line: p?.line ?? 1, reason: `it does not parse: ${p?.message ?? e.message}` };
    }
  }
  try {
    const tokens = lex(text, templated);
    const result = layout(tokens);
    if (signature(lex(result, templated)) !== signature(tokens)) return { ok: false, line: 1, reason: 'its layout would change more than blanks (a case fmt does not know): left as it is' };
    if (plain && !isDeepStrictEqual(items(parseHcl(file, result).items), before)) return { ok: false, line: 1, reason: 'its layout would change a value (a case fmt does not know): left as it is' };
    return { ok: true, text: result };
  } catch (e) {
    if (e instanceof Unformattable) return { ok: false, line: e.line, reason: e.message };
    throw e;
  }
}

/** What a layout must keep: every token's text, line ends (runs of them as one), and what touches a template. */
function signature(tokens: Token[]): string {
  const parts: string[] = [];
  tokens.forEach((t, i) => {
    if (t.kind === 'newline') {
      if (parts.length > 0 && parts[parts.length - 1] !== '\n') parts.push('\n');
      return;
    }
    const previous = tokens[i - 1];
    const loose = (k: string) => k === 'template' || k === 'other';
    const touches = previous !== undefined && previous.kind !== 'newline' && (loose(t.kind) || loose(previous.kind)) ? (t.spaced ? ' ' : '') : '';
    parts.push(`${touches}${t.kind}:${t.text}`);
  });
  while (parts[parts.length - 1] === '\n') parts.pop();
  return parts.join('\0');
}

/** Items without their positions, which a layout moves. */
function items(list: HclItem[]): unknown[] {
  return list.map((item) => (item.kind === 'attribute' ? [item.name, item.value] : [item.type, item.labels, items(item.body)]));
}
