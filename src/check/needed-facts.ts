// Which facts each file of a tree reads, told from its text with Handlebars' own parser: every
// `fact "NAME"` and `hostfact "HOST" "NAME"` whose names are written as strings (a name computed
// by the template is not known before it renders). For `govern check` without a facts snapshot.
import type HandlebarsModule from 'handlebars';
import { readSourceFile } from '../shared/source-file.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Handlebars = require('handlebars') as typeof HandlebarsModule;

type Call = hbs.AST.MustacheStatement | hbs.AST.SubExpression | hbs.AST.BlockStatement;

class FactCalls extends Handlebars.Visitor {
  readonly names = new Set<string>();

  MustacheStatement(node: hbs.AST.MustacheStatement): void {
    this.call(node);
    super.MustacheStatement(node);
  }

  SubExpression(node: hbs.AST.SubExpression): void {
    this.call(node);
    super.SubExpression(node);
  }

  BlockStatement(node: hbs.AST.BlockStatement): void {
    this.call(node);
    super.BlockStatement(node);
  }

  private call(node: Call): void {
    const helper = node.path.type === 'PathExpression' ? (node.path as hbs.AST.PathExpression).original : undefined;
    const literal = (i: number) => (node.params[i]?.type === 'StringLiteral' ? (node.params[i] as hbs.AST.StringLiteral).value : undefined);
    const [host, name] = helper === 'fact' ? [undefined, literal(0)] : helper === 'hostfact' ? [literal(0), literal(1)] : [undefined, undefined];
    if (name !== undefined) this.names.add(host !== undefined ? `${host}:${name}` : name);
  }
}

/** The facts a file reads (`NAME`, or `HOST:NAME` for another host's), sorted; [] for a file that does not parse as a template. */
export function neededFacts(file: string, tree: string | undefined): string[] {
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(readSourceFile(file, tree));
  } catch {
    return []; // its problem is told by the render
  }
  const calls = new FactCalls();
  calls.accept(program);
  return [...calls.names].sort();
}
