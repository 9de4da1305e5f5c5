// A template that ends inside a block (`{{#if}}` without `{{/if}}`): Handlebars says only
// "Expecting 'OPEN_ENDBLOCK', got 'EOF'" at the last line. This finds the block left open and the
// line it opened on, as Jinja names it ("Unexpected end of template... 'if' ... line 3").

export interface OpenBlock {
  name: string;
  line: number;
}

/** Comments first (they may hold braces), then block openers and closers, in source order. */
const TAG = /\{\{!--[\s\S]*?--\}\}|\{\{![\s\S]*?\}\}|\{\{~?\s*([#/])\s*(\*?[A-Za-z_][\w.-]*)/g;

/** The innermost block left open at the end of the source; undefined when every block is closed. */
export function unclosedBlock(source: string): OpenBlock | undefined {
  const open: OpenBlock[] = [];
  for (const match of source.matchAll(TAG)) {
    const [, kind, name] = match;
    if (kind === undefined) continue; // a comment
    if (kind === '#') open.push({ name, line: lineAt(source, match.index ?? 0) });
    else if (open.length > 0 && open[open.length - 1].name === name) open.pop();
    else return undefined; // a mismatched closer: Handlebars' own message says which
  }
  return open.at(-1);
}

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}
