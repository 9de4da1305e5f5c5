// Parses HCL with @cdktf/hcl2json (loaded on first use: its WebAssembly takes a while to start).
// Its output uses Terraform's JSON syntax, where `$${` and `%%{` are literal and `${...}` is an
// expression; govern does not evaluate HCL expressions (templates are Handlebars), so this module
// turns the escapes back into text and reports any expression as an error.
import { UserError, type Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { LIFT_MIN_CHARS, restoreLifted, shieldHcl } from './hcl-shield.js';

type Hcl2Json = { parse(filename: string, contents: string): Promise<Record<string, unknown>> };
let loaded: Hcl2Json | undefined;

function hcl2json(): Hcl2Json {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('@cdktf/hcl2json') as Hcl2Json;
  return loaded;
}

const PLACEHOLDER = 'GOVERN_STATE_FILE';

/** liftMin: literals at least this long are kept away from hcl2json's slow parser (see hcl-shield.ts). */
export async function parseHcl(file: string, text: string, liftMin = LIFT_MIN_CHARS): Promise<Record<string, unknown>> {
  const shielded = shieldHcl(file, text, liftMin);
  if (shielded.lifted.size > 0) {
    try {
      return restoreLifted(await hcl2json().parse(PLACEHOLDER, shielded.text), shielded.lifted);
    } catch {
      // Errors are reported on the text as written: parsed again, whole.
    }
  }
  try {
    return await hcl2json().parse(PLACEHOLDER, text);
  } catch (e) {
    if (e instanceof RangeError) throw new UserError({ file, message: `too deeply nested for the HCL parser (${e.message})` });
    throw new UserError(parseErrorProblems(file, String((e as Error)?.message ?? e)));
  }
}

/** "parse config: [F:2,6-3,1: Summary; Detail.]" -> one problem per diagnostic, at line 2, column 6 (of the text parsed). */
function parseErrorProblems(file: string, message: string): Problem[] {
  const inner = message.replace(/^parse config: \[/, '').replace(/\]$/, '');
  const parts = inner.split(new RegExp(`(?:^|\\s)${PLACEHOLDER}:`)).filter((p) => p.trim() !== '');
  if (parts.length === 0) return [{ file, message: `HCL syntax error: ${message}` }];
  return parts.map((part) => {
    const m = /^(\d+),(\d+)(?:-\d+(?:,\d+)?)?: ([\s\S]*)$/.exec(part.trim());
    return m ? { file, line: Number(m[1]), column: Number(m[2]), message: withEscapeHint(m[3].trim()) } : { file, message: part.trim() };
  });
}

/** HCL reads `%{` and `${` in any string as the start of a directive or interpolation: name the escapes. */
function withEscapeHint(message: string): string {
  if (/^Invalid template (control keyword|directive)|^Extra characters after interpolation|^Invalid template interpolation/.test(message)) {
    return `${message.replace(/\.$/, '')}: a literal "%{" is written "%%{" in a state file (and "\${" is written "$\${"), as in LogFormat "%%{Referer}i"`;
  }
  return message;
}

export class ExpressionError extends Error {
  /** The message without the value (for a sensitive resource). */
  constructor(
    message: string,
    readonly quiet: string,
  ) {
    super(message);
  }
}

/** A string from hcl2json's output as plain text; throws ExpressionError on `${...}` or `%{...}`. */
export function literalText(value: string): string {
  if (!value.includes('{')) return value;
  const parts: string[] = [];
  let from = 0;
  for (let at = value.indexOf('{', 1); at >= 0; at = value.indexOf('{', at + 1)) {
    const ch = value[at - 1];
    if (ch !== '$' && ch !== '%') continue;
    if (value[at - 2] === ch && at - 2 >= from) {
      parts.push(value.slice(from, at - 1)); // `$${` is a literal `${`: drop one sign
      from = at;
      continue;
    }
    const why = `contains the HCL expression "${ch}{": govern does not evaluate HCL expressions; use Handlebars ({{fact "..."}}), or write "${ch}${ch}{" for a literal "${ch}{"`;
    throw new ExpressionError(`${JSON.stringify(value.length > 200 ? value.slice(0, 200) + '...' : value)} ${why}`, why);
  }
  parts.push(value.slice(from));
  return parts.join('');
}

/** Applies literalText to every string (and key) of a decoded value. */
export function literalValue(value: unknown): AttrValue {
  if (typeof value === 'string') return literalText(value);
  if (Array.isArray(value)) return value.map(literalValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [literalText(k), literalValue(v)]));
  }
  return value as AttrValue;
}
