// Long templates in pieces Handlebars compiles apart. Handlebars makes each block's body one
// function, and a run of text and `{{x}}` in it one expression, which V8 compiles in memory that
// grows with the run: 100,000 `{{x}}` took 1.4 GB, 2.2 GB inside an `{{#each}}`. A body longer
// than PIECE statements is cut into blocks of a helper that renders its body in the same context,
// as `{{#if true}}` would: the text is the same (whitespace control and standalone lines were
// settled before the pieces are made; `../`, block parameters and `@index` see through a block
// that keeps the context), and each piece is a function of its own, in about a quarter of the memory.
import type { HelperFn } from './helpers.js';

type TemplateFn = (context: unknown, options: Record<string, unknown>) => string;

/** The parts of Handlebars that compile a parsed template (its compile() is made of them). */
export interface Compilers {
  parse(ast: hbs.AST.Program): hbs.AST.Program;
  Compiler: new () => { compile(ast: hbs.AST.Program, options: object): unknown };
  JavaScriptCompiler: new () => { compile(environment: unknown, options: object, context: undefined, asObject: true): unknown };
  template(spec: unknown): TemplateFn;
}

/**
 * Compiled now, as Handlebars' compile() does at the first render, but the pieces are made after
 * its whitespace control has run over the template (run over them, it would take the first and
 * last piece's edges for standalone lines), and no closure keeps the parsed template for as long
 * as the function lives: 100 MB for 100,000 terms, in every template of a tree.
 */
export function compiledInPieces(hb: Compilers, ast: hbs.AST.Program): TemplateFn {
  const options = { strict: true, noEscape: true, data: true, knownHelpers: { [PIECE_HELPER]: true } };
  const environment = new hb.Compiler().compile(inPieces(hb.parse(ast)), options);
  return hb.template(new hb.JavaScriptCompiler().compile(environment, options, undefined, true));
}

/** The helper of the pieces: no template can name it, as the pieces are made after names are checked. */
export const PIECE_HELPER = '__govern_piece';
const PIECE = 256;

/** Renders a piece: its body, in the context it is in. */
export const renderPiece: HelperFn = function (this: unknown, ...all: unknown[]) {
  return (all[all.length - 1] as { fn: (context: unknown) => string }).fn(this);
};

/** The template with each long body in pieces (in place). */
export function inPieces(program: hbs.AST.Program): hbs.AST.Program {
  for (const statement of program.body) {
    const block = statement as Partial<hbs.AST.BlockStatement>;
    if (block.program) inPieces(block.program);
    if (block.inverse) inPieces(block.inverse);
  }
  // An inline partial (`{{#*inline}}`) or other decorator applies to the body it is in: kept whole.
  if (program.body.length <= PIECE || program.body.some((s) => s.type === 'DecoratorBlock' || s.type === 'Decorator')) return program;
  const pieces: hbs.AST.Statement[] = [];
  for (let i = 0; i < program.body.length; i += PIECE) pieces.push(piece(program.body.slice(i, i + PIECE)));
  program.body = pieces;
  return program;
}

function piece(body: hbs.AST.Statement[]): hbs.AST.BlockStatement {
  const loc = body[0].loc;
  const none = { open: false, close: false };
  return {
    type: 'BlockStatement',
    path: { type: 'PathExpression', data: false, depth: 0, parts: [PIECE_HELPER], original: PIECE_HELPER, loc },
    params: [],
    hash: undefined as unknown as hbs.AST.Hash,
    program: { type: 'Program', body, blockParams: undefined as unknown as string[], loc },
    inverse: undefined as unknown as hbs.AST.Program,
    openStrip: none,
    inverseStrip: none,
    closeStrip: none,
    loc,
  };
}
