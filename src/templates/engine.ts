// Handlebars as govern uses it: no HTML escaping, strict lookups, and a static check that every
// helper and variable a template names exists, so a typo is an error with the file and line rather
// than an empty string.
import Handlebars from 'handlebars';
import { UserError, type Problem } from '../shared/errors.js';
import type { HelperFn } from './helpers.js';
import { markSourceLines } from './line-marks.js';

export class TemplateError extends UserError {}

/** The rendered text, carrying the marks of its source lines (line-marks.ts). */
export type RenderFn = (helpers: Record<string, HelperFn>) => string;

export interface CompiledTemplate {
  file: string;
  render: RenderFn;
}

const BUILTIN_HELPERS = ['if', 'unless', 'each', 'with', 'lookup', 'log'];
/** Block helpers that change the context: bare names inside them are looked up at run time (strictly). */
const CONTEXT_HELPERS = new Set(['each', 'with']);

type Node = hbs.AST.Node & Record<string, unknown>;

/** Parses and checks a template; helperNames are every helper that will be passed at render time. */
export function compileTemplate(file: string, source: string, helperNames: string[]): CompiledTemplate {
  // Without a mustache, Handlebars would give back the text as it is: skip its compiler.
  if (!source.includes('{{')) return { file, render: () => source };
  let ast: hbs.AST.Program;
  try {
    ast = Handlebars.parse(source);
  } catch (e) {
    throw new TemplateError({ file, line: parseErrorLine(e), message: `template syntax error: ${firstLine(e)}` });
  }
  const known = new Set([...BUILTIN_HELPERS, ...helperNames]);
  checkNames(ast, file, known);
  markSourceLines(ast, source);
  const template = Handlebars.compile(ast, { strict: true, noEscape: true });
  return {
    file,
    render: (helpers) => {
      try {
        return template({}, { helpers, allowProtoPropertiesByDefault: false });
      } catch (e) {
        const err = e as Error & { lineNumber?: number };
        const line = err.lineNumber ?? (err as Error & { templateLine?: number }).templateLine;
        const message = err.message.replace(/ - \d+:\d+$/, '').replace(/ not defined in \[object Object\]/, ' is not defined');
        throw new TemplateError({ file, line, message });
      }
    },
  };
}

function firstLine(e: unknown): string {
  const message = (e as Error).message;
  const lines = message.split('\n');
  // Handlebars parse errors: "Parse error on line N:", the source line, a caret, "Expecting ..."
  return lines.length >= 4 ? lines[3] : message.replace(/ - \d+:\d+$/, '');
}

function parseErrorLine(e: unknown): number | undefined {
  const err = e as Error & { lineNumber?: number };
  if (err.lineNumber !== undefined) return err.lineNumber;
  const match = /line (\d+)/.exec(err.message) ?? / - (\d+):\d+$/.exec(err.message);
  return match ? Number(match[1]) : undefined;
}

/** Wraps a helper so an error it throws carries the line of the call. */
export function withLine(fn: HelperFn): HelperFn {
  return (...all) => {
    try {
      return fn(...all);
    } catch (e) {
      const options = all[all.length - 1] as { loc?: { start: { line: number } } } | undefined;
      if (e instanceof Error && options?.loc) (e as Error & { templateLine?: number }).templateLine = options.loc.start.line;
      throw e;
    }
  };
}

function checkNames(ast: hbs.AST.Program, file: string, helpers: Set<string>): void {
  const problems: Problem[] = [];
  const line = (node: hbs.AST.Node) => node.loc?.start.line;

  const visitPath = (path: hbs.AST.PathExpression, scope: Set<string>, inContext: boolean) => {
    if (path.data) return; // @index, @key, @root...
    const head = path.parts[0];
    if (path.original === 'this' || path.original.startsWith('this.') || path.original.startsWith('./')) return;
    if (head !== undefined && scope.has(head)) return;
    if (inContext) return; // checked strictly at run time
    problems.push({ file, line: line(path), message: `unknown variable or helper "${path.original}"` });
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
      case 'PartialStatement':
      case 'PartialBlockStatement':
      case 'DecoratorBlock':
      case 'Decorator':
        problems.push({ file, line: line(node), message: 'partials and decorators are not supported in govern templates' });
        break;
      default:
        break; // content and comments
    }
  };

  visitProgram(ast, new Set(), false);
  if (problems.length > 0) throw new TemplateError(problems);
}
