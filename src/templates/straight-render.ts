// A straight template (line-marks.ts) whose values are plain: `{{name}}`, `{{a.b}}`, and helper
// calls whose arguments are literals, names and `(helper ...)` calls. It renders by walking its
// parsed form, doing what the code Handlebars compiles for it does (a value looked up strictly, an
// argument leniently, a helper given its options), without Handlebars' compiler and its runtime's
// setup at each call: a module's state files render once per instance (bench/README.md, "The fleet
// layer"). Any other template renders through Handlebars.
import type { HelperFn } from './helpers.js';

/** Renders the template with these helpers and variables. */
export type StraightRender = (helpers: Record<string, HelperFn>, vars: Record<string, unknown>) => string;

type Value = (helpers: Record<string, HelperFn>, vars: Record<string, unknown>) => unknown;
type Loc = { start: { line: number; column: number }; end: { line: number; column: number } };

/** Handlebars' own helpers: a name among them is Handlebars' meaning, so such a template is left to it. */
const HANDLEBARS_HELPERS = new Set(['if', 'unless', 'each', 'with', 'helperMissing', 'blockHelperMissing']);

/** The renderer of a straight template, or undefined when a value is more than this file walks. */
export function straightRenderer(ast: hbs.AST.Program): StraightRender | undefined {
  const parts: (string | Value)[] = [];
  for (const statement of ast.body) {
    if (statement.type === 'ContentStatement') {
      parts.push((statement as hbs.AST.ContentStatement).value);
      continue;
    }
    const value = statement.type === 'MustacheStatement' ? mustache(statement as hbs.AST.MustacheStatement) : undefined;
    if (!value) return undefined;
    parts.push(value);
  }
  return (helpers, vars) => {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') out += part;
      else {
        const value = part(helpers, vars);
        if (value != null) out += value as string;
      }
    }
    return out;
  };
}

/** `{{name}}` (a helper, else the variable, strictly), `{{a.b}}` (its last part strictly), `{{helper args...}}`. */
function mustache(node: hbs.AST.MustacheStatement): Value | undefined {
  const path = plainPath(node.path);
  if (!path) return undefined;
  if (node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0) return call(path, node.params, node.hash, node.loc);
  const { parts } = path;
  const loc = at(path.loc);
  const last = parts[parts.length - 1];
  if (parts.length === 1) {
    const options = (vars: Record<string, unknown>) => ({ name: last, hash: {}, data: { root: vars }, loc: at(node.loc) });
    return (helpers, vars) => {
      const helper = own(helpers, last) ?? strict(vars, last, loc);
      return typeof helper === 'function' ? (helper as HelperFn).call(vars, options(vars)) : helper;
    };
  }
  return (_helpers, vars) => {
    let container: unknown = vars;
    for (let i = 0; i < parts.length - 1; i++) container = lookup(container, parts[i]);
    const value = strict(container, last, loc);
    return typeof value === 'function' ? (value as () => unknown).call(vars) : value;
  };
}

/** A helper call: its arguments and hash evaluated in order, then the helper called with its options. */
function call(path: hbs.AST.PathExpression, params: hbs.AST.Expression[], hash: hbs.AST.Hash | undefined, node: hbs.AST.SourceLocation): Value | undefined {
  if (path.parts.length !== 1) return undefined;
  const name = path.parts[0];
  const args = params.map(argument);
  const pairs = (hash?.pairs ?? []).map((pair) => [pair.key, argument(pair.value)] as const);
  if (args.some((a) => !a) || pairs.some(([, a]) => !a)) return undefined;
  const nameLoc = at(path.loc);
  const loc = at(node);
  // Loops rather than map and spread: a module's file makes thousands of these calls.
  return (helpers, vars) => {
    const helper = own(helpers, name) ?? strict(vars, name, nameLoc);
    const given: unknown[] = new Array(args.length + 1);
    for (let i = 0; i < args.length; i++) given[i] = args[i]!(helpers, vars);
    const hashValues: Record<string, unknown> = {};
    for (const [key, a] of pairs) hashValues[key] = a!(helpers, vars);
    given[args.length] = { name, hash: hashValues, data: { root: vars }, loc };
    return (helper as HelperFn).apply(vars, given);
  };
}

/** An argument: a literal, a name (looked up leniently: a missing one is undefined), or a `(helper ...)` call. */
function argument(expr: hbs.AST.Expression): Value | undefined {
  switch (expr.type) {
    case 'StringLiteral':
    case 'NumberLiteral':
    case 'BooleanLiteral': {
      const value = (expr as hbs.AST.StringLiteral | hbs.AST.NumberLiteral | hbs.AST.BooleanLiteral).value;
      return () => value;
    }
    case 'UndefinedLiteral':
      return () => undefined;
    case 'NullLiteral':
      return () => null;
    case 'SubExpression': {
      const sub = expr as hbs.AST.SubExpression;
      const path = plainPath(sub.path);
      return path && call(path, sub.params, sub.hash, sub.loc);
    }
    case 'PathExpression': {
      const path = plainPath(expr);
      if (!path) return undefined;
      const { parts } = path;
      return (_helpers, vars) => {
        let value: unknown = vars;
        for (const part of parts) value = lookup(value, part);
        return value;
      };
    }
    default:
      return undefined;
  }
}

/** A name or a dotted path from the template's variables: not `this`, `../`, `@data`, nor one of Handlebars' helpers. */
function plainPath(expr: hbs.AST.Expression): hbs.AST.PathExpression | undefined {
  if (expr.type !== 'PathExpression') return undefined;
  const path = expr as hbs.AST.PathExpression;
  if (path.data || path.depth !== 0 || path.parts.length === 0 || /^(this\b|\.)/.test(path.original)) return undefined;
  if (HANDLEBARS_HELPERS.has(path.parts[0])) return undefined;
  return path;
}

/** Handlebars' lookupProperty: an own property, else nothing (a member of the prototype is never a value). */
function lookup(container: unknown, name: string): unknown {
  const value = (container as Record<string, unknown>)[name];
  if (value == null) return value;
  return Object.prototype.hasOwnProperty.call(container, name) ? value : undefined;
}

function own(helpers: Record<string, HelperFn>, name: string): HelperFn | undefined {
  return Object.prototype.hasOwnProperty.call(helpers, name) ? helpers[name] : undefined;
}

/** Handlebars' strict lookup: a name the container does not have is an error at its line. */
function strict(container: unknown, name: string, loc: Loc): unknown {
  if (!container || !(name in (container as object))) {
    throw Object.assign(new Error(`"${name}" not defined in ${String(container)}`), { lineNumber: loc.start.line });
  }
  return lookup(container, name);
}

function at(loc: hbs.AST.SourceLocation): Loc {
  return { start: { line: loc.start.line, column: loc.start.column }, end: { line: loc.end.line, column: loc.end.column } };
}
