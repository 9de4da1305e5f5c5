// Quotes any text as an HCL string literal, so a value (a fact, perhaps from another host) can never
// end the string or start an interpolation: `"`, `\` and control characters are escaped, and `${`
// and `%{` are doubled to HCL's literal forms `$${` and `%%{`.

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function hclQuote(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    const next = value[i + 1];
    if (ESCAPES[ch] !== undefined) out += ESCAPES[ch];
    else if ((ch === '$' || ch === '%') && next === '{') out += ch + ch;
    else if (ch < ' ' || ch === '\x7f') out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}
