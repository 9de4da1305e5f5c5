// Handlebars as govern uses it: no HTML escaping, strict lookups, and a static check that every
// helper and variable a template names exists, so a typo is an error with the file and line rather
// than an empty string. Partials (`{{> name}}`) are allowed where the caller finds them (file
// templates, docs/templates.md), checked the same way. Two of Handlebars' own helpers are replaced:
// `lookup`, which gives an empty string for a missing key even in strict mode, and `log`, which
// writes to stdout (where `govern render` and `govern run --json` write their results).
import { constants as bufferConstants } from 'node:buffer';
import { unclosedBlock } from './unclosed-block.js';
import { templateBounds } from './bounds.js';
import { compiledInPieces, PIECE_HELPER, renderPiece, type Compilers } from './pieces.js';
import type HandlebarsModule from 'handlebars';
import { codeIdentity } from '../config/code-identity.js';
import { UserError, type Problem } from '../shared/errors.js';
import { checkNames } from './check-names.js';
import { HelperError, type HelperFn } from './helpers.js';
import { fromKept, toKept } from './kept-form.js';
import { markSourceLines, straightShape, type StraightShape } from './line-marks.js';
import { straightRenderer, type StraightRender } from './straight-render.js';
import { linesNaming, onlyUsed, usedNames } from './used-names.js';
import { closeBraceHint, linesNamingPart, lookupInValueMessage, undefinedNameMessage } from './message-words.js';

/** Loaded when a template first needs it: a command that renders nothing (help, status) does not pay for it. */
let loaded: typeof HandlebarsModule | undefined;
function handlebars(): typeof HandlebarsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('handlebars') as typeof HandlebarsModule);
}

/**
 * Handlebars' parser alone (a vendor file of its own in the bundle, scripts/bundle.js): a straight
 * template renders by walking its parsed form, so a run whose templates all are (most state files)
 * never loads Handlebars' compiler and runtime (bench/README.md, "Round four").
 */
let parser: { parse: (source: string) => hbs.AST.Program } | undefined;
function parse(source: string): hbs.AST.Program {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  parser ??= require('handlebars/dist/cjs/handlebars/compiler/base') as { parse: (source: string) => hbs.AST.Program };
  return parser.parse(source);
}

export class TemplateError extends UserError {}

/** What `{{log ...}}` says, at a line of the template. */
export type TemplateLog = (line: number | undefined, text: string) => void;

/** The rendered text, carrying the marks of its source lines (line-marks.ts). */
export type RenderFn = (helpers: Record<string, HelperFn>, log: TemplateLog, vars?: Record<string, unknown>) => string;

export interface CompiledTemplate {
  file: string;
  render: RenderFn;
  /** Left unmarked though marks were asked for (options.straight): its shape, and the template with marks. */
  straight?: StraightShape & { marked: () => CompiledTemplate };
}

/** A partial's text, or why there is none (`not found in ...`). */
export type PartialLookup = (name: string) => { file: string; source: string } | { missing: string };

/** Where a straight template's parsed form is kept between runs (the runner cache's `template` area). */
export interface KeptTemplates {
  get(key: string): Record<string, unknown> | undefined;
  put(key: string, value: Record<string, unknown>): void;
}

const KEPT_FORMAT = 'govern-template-1';

export interface CompileOptions {
  /** Keeps a straight template's parsed form, so the next run neither parses nor checks it (a state file's). */
  kept?: KeptTemplates;
  /** The variables the template is rendered with (its context); none for a state file. */
  variables?: readonly string[];
  /** Where `{{> name}}` is found; without it, partials are refused. */
  partials?: PartialLookup;
  /** Mark the rendered text with its source lines (state files: line-marks.ts); default true. */
  marks?: boolean;
  /** Leave a straight template (line-marks.ts straightShape) unmarked, with the marked one at hand, and give one without partials only the helpers it names (used-names.ts); default false. */
  straight?: boolean;
}

/** What compiling learns of a template asked to be straight (options.straight). */
type CompiledShape = { straight?: StraightShape; names?: Set<string>; direct?: StraightRender };

type TemplateFn = (context: unknown, options: Record<string, unknown>) => string;

/** The partials a template uses, compiled once each, shared by the partials they use in turn. */
interface PartialSet {
  lookup: PartialLookup;
  compiled: Map<string, TemplateFn>;
  /** The partials being compiled: one that reaches itself again is a loop. */
  open: string[];
  problems: Problem[];
  /** The terms of the template and the partials read so far (bounds.ts). */
  counted: { terms: number; refused?: boolean };
}

const BUILTIN_HELPERS = ['if', 'unless', 'each', 'with', 'lookup', 'log'];
/** Parses and checks a template; helperNames are every helper that will be passed at render time. */
export function compileTemplate(file: string, source: string, helperNames: string[], options: CompileOptions = {}): CompiledTemplate {
  // Without a mustache, Handlebars would give back the text as it is: skip its compiler.
  if (!source.includes('{{')) return { file, render: () => source };
  const helpers = new Set([...BUILTIN_HELPERS, ...helperNames]);
  const partials: PartialSet | undefined = options.partials && { lookup: options.partials, compiled: new Map(), open: [], problems: [], counted: { terms: 0 } };
  let template: TemplateFn;
  const shape: CompiledShape = {};
  try {
    template = compileChecked(file, source, helpers, options, partials, false, options.straight && !partials ? shape : undefined);
  } catch (e) {
    // The template's own problems, and those of the partials it names, together.
    if (e instanceof TemplateError && partials) throw new TemplateError([...e.problems, ...partials.problems]);
    throw e;
  }
  if (partials && partials.problems.length > 0) throw new TemplateError(partials.problems);
  const context = Object.fromEntries((options.variables ?? []).map((name) => [name, undefined]));
  let marked: CompiledTemplate | undefined;
  return {
    file,
    ...(shape.straight && { straight: { ...shape.straight, marked: () => (marked ??= compileTemplate(file, source, helperNames, { ...options, straight: false })) } }),
    render: (helperFns, log, vars: Record<string, unknown> = context) => {
      try {
        const all = { ...onlyUsed(helperFns, shape.names), lookup: withLine(strictLookup), log: logTo(log), [PIECE_HELPER]: renderPiece };
        if (shape.direct) return shape.direct(all, vars);
        return template(vars, { helpers: all, partials: Object.fromEntries(partials?.compiled ?? []), allowProtoPropertiesByDefault: false });
      } catch (e) {
        throw asTemplateError(e, file, source);
      }
    },
  };
}

/** The lines where a template reads one of the variables; none when it does not parse (compiling it says why). */
export function variableLines(source: string, variables: ReadonlySet<string>): number[] {
  try {
    return source.includes('{{') ? linesNaming(parse(source), variables) : [];
  } catch {
    return [];
  }
}

/** Problems told of one template: a template of 100,000 `{{x}}`, x unknown, is not 100,000 lines of them. */
const MAX_PROBLEMS = 100;

/** Parses, checks and compiles one template or partial; a partial's errors name its own file. */
function compileChecked(file: string, source: string, helpers: Set<string>, options: CompileOptions, partials: PartialSet | undefined, inContext = false, shape?: CompiledShape): TemplateFn {
  let ast: hbs.AST.Program;
  const keptKey = shape && options.kept && (options.marks ?? true) ? `${KEPT_FORMAT}\0${codeIdentity()}\0${[...helpers].sort().join(',')}\0${(options.variables ?? []).join(',')}\0${source}` : undefined;
  const kept = keptKey !== undefined ? (options.kept!.get(keptKey) as { ast?: Record<string, unknown> } | undefined) : undefined;
  if (shape && kept?.ast && (kept.ast as { type?: unknown }).type === 'Program' && Array.isArray((kept.ast as { body?: unknown }).body)) {
    // Parsed and checked by an earlier run of this build, with the same helpers and variables.
    const keptAst = fromKept(kept.ast, source);
    shape.names = usedNames(keptAst);
    shape.straight = straightShape(keptAst, source);
    shape.direct = shape.straight && straightRenderer(keptAst);
    if (shape.direct) return () => '';
  }
  try {
    const over = templateBounds(file, source, partials?.counted ?? { terms: 0 });
    if (over) throw new TemplateError(over);
    ast = parse(source);
    const use = partials && ((name: string, line: number | undefined, dynamic: boolean) => usePartial(partials, name, file, line, dynamic, helpers, options));
    const problems = checkNames(ast, file, helpers, options.variables ?? [], use, inContext);
    if (problems.length > 0) throw new TemplateError(problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), { file, message: `and ${problems.length - MAX_PROBLEMS} more problems like these` }] : problems);
    if (shape) shape.names = usedNames(ast);
    if ((options.marks ?? true) && !(shape && (shape.straight = straightShape(ast, source)))) markSourceLines(ast, source);
    if (shape?.straight) shape.direct = straightRenderer(ast);
    const keptForm = shape?.direct && keptKey !== undefined ? toKept(ast, source) : undefined;
    if (keptForm) options.kept!.put(keptKey!, { ast: keptForm });
  } catch (e) {
    if (e instanceof TemplateError) throw e;
    if (e instanceof RangeError) throw tooDeep(file);
    const open = /got 'EOF'/.test((e as Error).message) ? unclosedBlock(source) : undefined;
    if (open) throw new TemplateError({ file, line: open.line, message: `template syntax error: {{#${open.name}}} opened on line ${open.line} is never closed (no {{/${open.name}}} before the end of the template)` });
    const line = parseErrorLine(e);
    throw new TemplateError({ file, line, message: `template syntax error: ${closeBraceHint((e as Error).message, source, line) ?? firstLine(e)}` });
  }
  // A template rendered by walking it is never given to Handlebars (its marked form, with a value
  // that held a line break, is compiled apart).
  if (shape?.direct) return () => '';
  try {
    return compiledInPieces(handlebars() as unknown as Compilers, ast);
  } catch (e) {
    // V8's refusal of what Handlebars made of the template (65,536 arguments to a helper), or
    // Handlebars' own at a line: told as a render's error was when Handlebars compiled at it.
    throw asTemplateError(e, file, source);
  }
}

/** Compiles a partial the first time it is named; a missing one, or a loop, is a problem at the line naming it. */
function usePartial(set: PartialSet, name: string, file: string, line: number | undefined, inContext: boolean, helpers: Set<string>, options: CompileOptions): void {
  if (set.open.includes(name)) {
    set.problems.push({ file, line, message: `partial "${name}" includes itself (${[...set.open.slice(set.open.indexOf(name)), name].join(' -> ')})` });
    return;
  }
  if (set.compiled.has(name)) return;
  const found = set.lookup(name);
  if ('missing' in found) {
    set.problems.push({ file, line, message: `partial "${name}": ${found.missing}` });
    return;
  }
  set.open.push(name);
  set.compiled.set(name, () => ''); // known while it compiles, so a loop is found once
  try {
    // In a changed context ({{#each}}) or with a context argument, its variables are checked as it renders.
    const fn = compileChecked(found.file, found.source, helpers, { ...options, marks: false }, set, inContext);
    set.compiled.set(name, (context, runtime) => {
      try {
        return fn(context, runtime);
      } catch (e) {
        throw asTemplateError(e, found.file, found.source);
      }
    });
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    set.problems.push(...e.problems);
  } finally {
    set.open.pop();
  }
}

/** An error while rendering, as a problem of the file being rendered (a partial's own, when it came from one). */
function asTemplateError(e: unknown, file: string, source: string): TemplateError {
  if (e instanceof TemplateError) return e;
  if (e instanceof RangeError && e.message.includes('Invalid string length')) return tooLarge(file);
  if (e instanceof RangeError) return tooDeep(file);
  // Handlebars' strict lookup in a string or number (the element of {{#each}} over a list of them)
  // fails with JavaScript's own words and no line.
  const inPrimitive = e instanceof TypeError ? /^Cannot use 'in' operator to search for '(.*)' in (.*)$/s.exec(e.message) : null;
  if (inPrimitive) {
    const lines = linesNamingPart(source, inPrimitive[1]);
    const asVariable = variableLines(source, new Set([inPrimitive[1]])).length > 0;
    return new TemplateError({ file, line: lines.length === 1 ? lines[0] : undefined, message: lookupInValueMessage(inPrimitive[1], inPrimitive[2], asVariable, lines) });
  }
  // A path through a missing key, three parts past it (`{{x.y.z.w}}`, x without y): Handlebars'
  // own lookup of the next part fails with JavaScript's words.
  const inNothing = e instanceof TypeError ? /^Cannot read properties of (?:undefined|null) \(reading '(.*)'\)$/s.exec(e.message) : null;
  const partLines = inNothing ? linesNamingPart(source, inNothing[1]) : [];
  if (inNothing && partLines.length > 0) {
    const line = partLines.length === 1 ? partLines[0] : undefined;
    return new TemplateError({ file, line, message: undefinedNameMessage(`"${inNothing[1]}" not defined in undefined`, source, line) });
  }
  const err = e as Error & { lineNumber?: number };
  const line = err.lineNumber ?? (err as Error & { templateLine?: number }).templateLine;
  const message = undefinedNameMessage(err.message.replace(/ - \d+:\d+$/, ''), source, line);
  return new TemplateError({ file, line, message });
}

/**
 * Handlebars recursed past the stack although the template passed its bounds (bounds.ts counts
 * blocks, chains, sub-expressions and paths before parsing, and names the line).
 */
function tooDeep(file: string): TemplateError {
  return new TemplateError({ file, message: 'nested too deeply for Handlebars (blocks, {{else if}} chains, sub-expressions or paths)' });
}

/** The rendered text passed the longest string the JavaScript engine can hold (partials that double, say). */
function tooLarge(file: string): TemplateError {
  const mib = Math.floor(bufferConstants.MAX_STRING_LENGTH / 1024 / 1024);
  return new TemplateError({ file, message: `the rendered text is too large: it passes ${mib} MiB, the longest text Node.js can hold (partials or loops repeating a large text?)` });
}

/** `lookup LIST-OR-MAP KEY`: an error, not an empty string, when the key is not there. */
const strictLookup: HelperFn = (...all) => {
  if (all.length !== 3) throw new HelperError(`lookup takes 2 arguments (a list or map, and a key), got ${all.length - 1}`);
  const [container, key] = all;
  const has = container !== null && typeof container === 'object' && (typeof key === 'string' || typeof key === 'number');
  if (has && Object.prototype.hasOwnProperty.call(container, key)) return (container as Record<string | number, unknown>)[key];
  const size = Array.isArray(container) ? ` (the list has ${container.length} element${container.length === 1 ? '' : 's'})` : '';
  throw new HelperError(`lookup: ${JSON.stringify(key) ?? String(key)} is not defined${size}`);
};

/** `log VALUE...` (and `level=...`, ignored): a line for the caller, never stdout. */
function logTo(log: TemplateLog): HelperFn {
  return (...all) => {
    const options = all[all.length - 1] as { loc?: { start: { line: number } } };
    const text = all.slice(0, -1).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v)));
    log(options.loc?.start.line, text.join(' '));
    return '';
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
