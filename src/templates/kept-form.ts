// A straight template's parsed form as the cache keeps it (engine.ts, KeptTemplates): its text and
// its string literals as offsets into the source, which the cache's key holds, so an entry carries
// no text of the file (a `sensitive` resource's value written in it), only the names and structure of
// its values. The source is the same when the entry is read: the offsets give the text back.
interface Span {
  from: number;
  to: number;
}

type Node = Record<string, unknown> & { type?: string; loc?: hbs.AST.SourceLocation };

/** Offsets of each line's start in the source. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function span(loc: hbs.AST.SourceLocation | undefined, starts: number[]): Span | undefined {
  if (!loc || starts[loc.start.line - 1] === undefined || starts[loc.end.line - 1] === undefined) return undefined;
  return { from: starts[loc.start.line - 1]! + loc.start.column, to: starts[loc.end.line - 1]! + loc.end.column };
}

/** The kept form, or undefined when a text or literal is not found where its location says (then it is not kept). */
export function toKept(ast: hbs.AST.Program, source: string): Record<string, unknown> | undefined {
  const starts = lineStarts(source);
  let ok = true;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const node = value as Node;
    if (node.type === 'ContentStatement' || node.type === 'StringLiteral') {
      const at = span(node.loc, starts);
      const text = node.type === 'ContentStatement' ? (node.value as string) : `"${node.value as string}"`;
      const alt = node.type === 'StringLiteral' ? `'${node.value as string}'` : text;
      const found = at && source.slice(at.from, at.to);
      if (!at || (found !== text && found !== alt)) ok = false;
      return { type: node.type, loc: node.loc, at };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  const kept = walk(ast) as Record<string, unknown>;
  return ok ? kept : undefined;
}

/** The parsed form again, from the kept one and the same source. */
export function fromKept(kept: Record<string, unknown>, source: string): hbs.AST.Program {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const node = value as Node & { at?: Span };
    if ((node.type === 'ContentStatement' || node.type === 'StringLiteral') && node.at) {
      const text = source.slice(node.at.from, node.at.to);
      const inner = node.type === 'StringLiteral' ? text.slice(1, -1) : text;
      return { type: node.type, value: inner, original: inner, loc: node.loc };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return walk(kept) as hbs.AST.Program;
}
