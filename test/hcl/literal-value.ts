// How govern read hcl2json's output before it had its own parser: Terraform's JSON syntax, where
// `$${` and `%%{` stand for a literal `${` and `%{`, and any other `${` or `%{` is an expression
// (refused). The reference the parser is compared with (reference-decoder.ts).

export function literalText(value: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let at = value.indexOf('{', 1); at >= 0; at = value.indexOf('{', at + 1)) {
    const ch = value[at - 1];
    if (ch !== '$' && ch !== '%') continue;
    if (value[at - 2] === ch && at - 2 >= from) {
      parts.push(value.slice(from, at - 1));
      from = at;
      continue;
    }
    throw new Error(`an HCL expression: ${JSON.stringify(value)}`);
  }
  parts.push(value.slice(from));
  return parts.join('');
}

export function literalValue(value: unknown): unknown {
  if (typeof value === 'string') return literalText(value);
  if (Array.isArray(value)) return value.map(literalValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [literalText(k), literalValue(v)]));
  }
  return value;
}
