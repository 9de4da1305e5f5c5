// The static check of a template before it renders: every helper it calls and every variable it
// names exists (a typo is an error at its line, not an empty string), no prototype member passes
// for a variable, and partials are named by path where they are allowed at all.
import type { Problem } from '../shared/errors.js';
import { closest } from '../shared/suggest.js';

/** Block helpers that change the context: bare names inside them are looked up at run time (strictly). */
export const CONTEXT_HELPERS = new Set(['each', 'with']);

type Node = hbs.AST.Node & Record<string, unknown>;

/** Called for each `{{> name}}`: inContext when its variables can only be checked as it renders. */
export type PartialUse = (name: string, line: number | undefined, inContext: boolean) => void;

/** inContext: the template renders in a context known only then (a partial inside {{#each}}): bare names are checked as it renders. */
export function checkNames(ast: hbs.AST.Program, file: string, helpers: Set<string>, variables: readonly string[], usePartialAt: PartialUse | undefined, inContext: boolean): Problem[] {
  const problems: Problem[] = [];
  const line = (node: hbs.AST.Node) => node.loc?.start.line;

  const visitPath = (path: hbs.AST.PathExpression, scope: Set<string>, inContext: boolean) => {
    // Strict mode checks `name in object`, true of every object's prototype members, which
    // Handlebars then hides: `{{this.constructor}}` would be an empty string, not an error.
    const inherited = path.parts.find((part) => part in Object.prototype);
    if (inherited !== undefined) {
      problems.push({ file, line: line(path), message: `"${path.original}": "${inherited}" is not a variable` });
      return;
    }
    if (path.data) return; // @index, @key, @root...
    const head = path.parts[0];
    if (path.original === 'this' || path.original.startsWith('this.') || path.original.startsWith('./')) return;
    if (head !== undefined && scope.has(head)) return;
    if (inContext) return; // checked strictly at run time
    // A variable the resource's vars nearly give: the typo is as likely in vars (`wokers`) as here.
    const near = head !== undefined && head.length > 3 ? closest(head, variables) : undefined;
    const vars = near !== undefined ? ` (the resource's vars give "${near}": is one of the two misspelt?)` : '';
    problems.push({ file, line: line(path), message: `unknown variable or helper "${path.original}"${vars}` });
  };

  const visitCall = (callee: hbs.AST.Expression, params: hbs.AST.Expression[], hash: hbs.AST.Hash | undefined, scope: Set<string>, inContext: boolean, isCall: boolean) => {
    if (callee.type === 'PathExpression') {
      const path = callee as hbs.AST.PathExpression;
      const name = path.original;
      if (isCall) {
        if (!helpers.has(name)) problems.push({ file, line: line(path), message: `unknown helper "${name}"` });
      } else if (!helpers.has(name)) {
        visitPath(path, scope, inContext);
      }
    } else {
      visitExpr(callee, scope, inContext);
    }
    for (const p of params) visitExpr(p, scope, inContext);
    for (const pair of hash?.pairs ?? []) visitExpr(pair.value, scope, inContext);
  };

  const visitExpr = (expr: hbs.AST.Expression, scope: Set<string>, inContext: boolean) => {
    if (expr.type === 'PathExpression') visitPath(expr as hbs.AST.PathExpression, scope, inContext);
    else if (expr.type === 'SubExpression') {
      const sub = expr as hbs.AST.SubExpression;
      visitCall(sub.path, sub.params, sub.hash, scope, inContext, true);
    }
  };

  const visitProgram = (program: hbs.AST.Program | undefined, scope: Set<string>, inContext: boolean) => {
    if (!program) return;
    const inner = new Set([...scope, ...(program.blockParams ?? [])]);
    for (const statement of program.body) visitStatement(statement as unknown as Node, inner, inContext);
  };

  const visitStatement = (node: Node, scope: Set<string>, inContext: boolean) => {
    switch (node.type) {
      case 'MustacheStatement': {
        const m = node as unknown as hbs.AST.MustacheStatement;
        visitCall(m.path, m.params, m.hash, scope, inContext, m.params.length > 0 || (m.hash?.pairs.length ?? 0) > 0);
        break;
      }
      case 'BlockStatement': {
        const b = node as unknown as hbs.AST.BlockStatement;
        visitCall(b.path, b.params, b.hash, scope, inContext, true);
        const name = b.path.type === 'PathExpression' ? (b.path as hbs.AST.PathExpression).original : '';
        const changesContext = inContext || (CONTEXT_HELPERS.has(name) && (b.program.blockParams ?? []).length === 0);
        visitProgram(b.program, scope, changesContext);
        visitProgram(b.inverse, scope, inContext);
        break;
      }
      case 'PartialStatement': {
        const p = node as unknown as hbs.AST.PartialStatement;
        if (!usePartialAt) {
          problems.push({ file, line: line(node), message: 'partials are supported only in file templates (a file resource\'s template), not in state files' });
          break;
        }
        if (p.name.type !== 'PathExpression') {
          problems.push({ file, line: line(node), message: 'a partial is named by its path in the templates directories ({{> nginx/headers}}), not computed' });
          break;
        }
        for (const param of p.params) visitExpr(param, scope, inContext);
        for (const pair of p.hash?.pairs ?? []) visitExpr(pair.value, scope, inContext);
        usePartialAt((p.name as hbs.AST.PathExpression).original, line(node), inContext || p.params.length > 0 || (p.hash?.pairs.length ?? 0) > 0);
        break;
      }
      case 'PartialBlockStatement':
      case 'DecoratorBlock':
      case 'Decorator':
        problems.push({ file, line: line(node), message: 'partial blocks ({{#> name}}) and decorators are not supported in govern templates' });
        break;
      default:
        break; // content and comments
    }
  };

  visitProgram(ast, new Set(variables), inContext);
  return problems;
}
