// The names a template's expressions start with ({{name}}, (name ...), {{#name}}, name=...): every
// helper it can call is among them, so a template without partials is given only those helpers
// when it renders. Handlebars wraps each helper it is given at every render, and a module's state
// files render once per instance (bench/README.md, "The fleet layer").
import { CONTEXT_HELPERS } from './check-names.js';

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

/** Block helpers that only choose what to render: their body is not given the value they test. */
const CONDITIONS = new Set(['if', 'unless']);

/**
 * The lines where the template reads one of the variables ({{pw}}, (upper pw), {{#if pw}},
 * {{@root.pw}}) or all of them at once ({{#each this}}, (lookup @root "pw")), and every line of a
 * block given one as its context or items ({{#with db}}, {{#each keys}}), where a bare {{password}}
 * or {{this}} reads it: a module's sensitive parameter taints the resources written there
 * (state/modules/expand.ts).
 */
export function linesNaming(ast: hbs.AST.Program, variables: ReadonlySet<string>): number[] {
  const lines = new Set<number>();
  /** Whether the node reads a variable; the lines where it does are added. atRoot: `this` is every variable. */
  const visit = (node: unknown, atRoot: boolean): boolean => {
    if (Array.isArray(node)) return node.map((n) => visit(n, atRoot)).includes(true);
    if (node === null || typeof node !== 'object') return false;
    const path = node as Partial<hbs.AST.PathExpression>;
    if (path.type === 'PathExpression') {
      const root = path.data === true && path.parts?.[0] === 'root';
      const parts = (root ? path.parts!.slice(1) : path.parts) ?? [];
      // {{this}} where the context is every variable, {{@root}}, and {{..}} (conservatively: some outer context).
      const whole = parts.length === 0 && (root || (path.data !== true && (atRoot || (path.depth ?? 0) > 0)));
      const named = whole || variables.has(String(parts[0]));
      if (named && path.loc) lines.add(path.loc.start.line);
      return named;
    }
    const block = node as Partial<hbs.AST.BlockStatement>;
    if (block.type === 'BlockStatement') {
      const helper = String((block.path as Partial<hbs.AST.PathExpression> | undefined)?.original);
      // {{#pw}}...{{/pw}} (a section) is given pw as {{#with pw}} is.
      const given = [visit(block.path, atRoot), visit(block.params, atRoot), visit(block.hash, atRoot)].includes(true);
      if (given && block.loc && !CONDITIONS.has(helper)) for (let line = block.loc.start.line; line <= block.loc.end.line; line++) lines.add(line);
      return [given, visit(block.program, atRoot && !CONTEXT_HELPERS.has(helper)), visit(block.inverse, atRoot)].includes(true);
    }
    return Object.entries(node)
      .filter(([key]) => key !== 'loc')
      .map(([, value]) => visit(value, atRoot))
      .includes(true);
  };
  visit(ast, true);
  return [...lines].sort((a, b) => a - b);
}
