// The names a template's expressions start with ({{name}}, (name ...), {{#name}}, name=...): every
// helper it can call is among them, so a template without partials is given only those helpers
// when it renders. Handlebars wraps each helper it is given at every render, and a module's state
// files render once per instance (bench/README.md, "The fleet layer").

/** The first part of every path expression in the template (a superset of the helpers it calls). */
export function usedNames(ast: hbs.AST.Program): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const path = node as Partial<hbs.AST.PathExpression>;
    if (path.type === 'PathExpression') {
      if (path.parts && path.parts.length > 0) names.add(String(path.parts[0]));
      names.add(String(path.original));
      return;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'loc') visit(value);
  };
  visit(ast);
  return names;
}

/** The helpers among names: the others stay out of the template's render. */
export function onlyUsed<T>(helpers: Record<string, T>, names: ReadonlySet<string> | undefined): Record<string, T> {
  if (!names) return helpers;
  const used: Record<string, T> = {};
  for (const name of names) if (Object.hasOwn(helpers, name)) used[name] = helpers[name];
  return used;
}
