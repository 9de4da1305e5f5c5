// The reference decoder the parser is compared with: @cdktf/hcl2json (HCL's own Go parser in
// WebAssembly, a devDependency kept for this comparison), its output read as govern read it before
// (`$${` and `%%{` literal, any other `${` or `%{` an expression).
import { literalValue } from './literal-value.js';
import type { HclItem } from '../../src/hcl/syntax.js';
import type { AttrValue } from '../../src/shared/protocol.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const hcl2json = require('@cdktf/hcl2json') as { parse(file: string, text: string): Promise<Record<string, unknown>> };

/** hcl2json's answer as a value, or undefined when it refuses the text (a syntax error or an expression). */
export async function referenceDecode(text: string): Promise<unknown> {
  let parsed: Record<string, unknown>;
  try {
    parsed = await hcl2json.parse('f.hcl', text);
  } catch {
    return undefined;
  }
  try {
    return bodiesLiteral(parsed, 0);
  } catch {
    return undefined;
  }
}

/** literalValue applied to bodies; block types and labels are HCL's plain strings, not templates. */
function bodiesLiteral(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return value.map((body) => literalValue(body));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) out[key] = bodiesLiteral(inner, depth + 1);
  return out;
}

/** Parsed items in hcl2json's shape: blocks grouped by type, then label, each a list of bodies. */
export function inReferenceShape(items: HclItem[]): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const item of items) {
    if (item.kind === 'attribute') {
      out[item.name] = item.value;
      continue;
    }
    let at = out as Record<string, AttrValue>;
    let key = item.type;
    for (const label of item.labels) {
      at[key] ??= {};
      at = at[key] as Record<string, AttrValue>;
      key = label;
    }
    at[key] ??= [];
    (at[key] as AttrValue[]).push(inReferenceShape(item.body));
  }
  return out;
}
