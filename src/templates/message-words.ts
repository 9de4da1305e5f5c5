// Handlebars' own messages where they do not say what to do: "Expecting 'CLOSE', got
// 'CLOSE_UNESCAPED'" for a "}" written right after a tag (nginx's `{{/each}}}`, and `{{{#each` for a
// "{" right before one), and strict mode's
// `"uid" not defined in undefined` for a key whose map is missing. Each becomes the name and the fix.

/**
 * For a parse error on `line`: what to write instead, when a "{" or "}" of the text touches a block
 * tag (`{{/each}}}`, `{{{#each`), which Handlebars reads as a {{{triple-stash}}}.
 */
export function closeBraceHint(message: string, source: string, line: number | undefined): string | undefined {
  if (line === undefined) return undefined;
  const text = source.split('\n')[line - 1] ?? '';
  const closing = /got 'CLOSE_UNESCAPED'/.test(message) ? /\{\{(?!\{)[^{}]*\}\}\}/.exec(text) : null;
  if (closing) {
    const written = closing[0];
    return `"${written}": Handlebars reads "}}}" as the end of a {{{triple-stash}}}, so a "}" cannot follow a tag's "}}" directly: write "${written.slice(0, -1)} }" (a space between), or the "}" on the next line`;
  }
  const opening = /got 'INVALID'/.test(message) ? /\{\{\{[#/^][^{}]*\}\}(?!\})/.exec(text) : null;
  if (opening) {
    const written = opening[0];
    return `"${written}": Handlebars reads "{{{" as the start of a {{{triple-stash}}}, so a "{" cannot come right before a block's "{{": write "{ ${written.slice(1)}" (a space between), or the "{" on the line before`;
  }
  return undefined;
}

/**
 * Strict mode's `"NAME" not defined in CONTAINER`, said with the whole key as the line writes it
 * (`PATH.NAME`): its map has no NAME, or, when the container is undefined or null, PATH itself is
 * what is missing.
 */
export function undefinedNameMessage(message: string, source: string, line: number | undefined): string {
  const m = /^"([^"]*)" not defined in (.*)$/s.exec(message);
  if (!m) return message;
  const [, name, container] = m;
  const text = line === undefined ? '' : source.split('\n')[line - 1] ?? '';
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const path = new RegExp(`([A-Za-z_@][\\w@-]*(?:[./][\\w@-]+)*)[./]${escaped}(?![\\w@-])`).exec(text)?.[1];
  const missing = container === 'undefined' || container === 'null';
  if (path === undefined) return missing ? `"${name}" is not defined: the map it is looked up in has no value here` : `"${name}" is not defined`;
  return missing ? `"${path}.${name}" is not defined: "${path}" has no value here, so it has no "${name}"` : `"${path}.${name}" is not defined: "${path}" has no key "${name}"`;
}

/**
 * A name looked up in a string or number: `{{x.y}}` where x is "1", or `{{y}}` inside {{#each}}
 * over a list of them (asVariable: the template reads y as one of its variables somewhere).
 */
export function lookupInValueMessage(name: string, value: string, asVariable: boolean, lines: number[]): string {
  const hint = asVariable ? `; inside {{#each}} or {{#with}}, a variable of the template is "../${name}" or "@root.${name}"` : '';
  const where = lines.length > 1 ? ` (it is read on lines ${lines.join(', ')})` : '';
  return `"${name}" is not defined: it is looked up in the value ${JSON.stringify(value)}, which has no keys${hint}${where}`;
}

/** The lines of the template's tags that name `name`, alone or as a part of a path. */
export function linesNamingPart(source: string, name: string): number[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const part = new RegExp(`(?:^|[^\\w@-])${escaped}(?![\\w@-])`);
  const lines: number[] = [];
  for (const [i, text] of source.split('\n').entries()) if (text.includes('{{') && part.test(text)) lines.push(i + 1);
  return lines;
}
