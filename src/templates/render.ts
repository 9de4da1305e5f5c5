// Renders templates with their facts. Helpers are synchronous and facts are not, so each pass
// records the facts it is missing, those are fetched (local ones serially, remote hosts in
// parallel), and the templates render again, until a pass needs nothing new.
import { formatProblem, UserError, type Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { isSensitiveFact, maskText } from '../shared/sensitive.js';
import { compileTemplate, TemplateError, withLine, type CompiledTemplate, type KeptTemplates, type PartialLookup } from './engine.js';
import { dataHelpers } from './data-helpers.js';
import { factHelpers, type FactUse } from './fact-helpers.js';
import { PendingFacts, type FactSources } from './fact-sources.js';
import { HelperError, pureHelpers, type HelperFn } from './helpers.js';
import { straightLines, unmarkLines, type UnmarkedText } from './line-marks.js';

export interface TemplateInput {
  file: string;
  source: string;
  /** A file template's variables (its context); a state file has none. */
  vars?: { [key: string]: AttrValue };
  /** Where its `{{> name}}` partials are found; without it, partials are refused (state files). */
  partials?: PartialLookup;
  /** Mark the rendered text with its source lines, as for a state file: a module's state files have variables too. */
  marks?: boolean;
  /** Rewrites the messages of this input's problems (to name what it is rendered for). */
  describe?: (message: string) => string;
  /** Hides the values this input's `{{log}}` lines must not show (those of a sensitive resource). */
  mask?: (text: string) => string;
  /** Where a straight state file's parsed form is kept between runs (engine.ts). */
  kept?: KeptTemplates;
  /** Values of its variables that no message may show (a module's sensitive parameters), as a sensitive fact's. */
  secrets?: string[];
  /** The lines that read those variables: an error there may quote a value changed by a helper (upper, yesno, JSON). */
  secretLines?: number[];
}

/** A rendered template: its text, where each line came from, and the sensitive facts it used. */
export interface RenderedText extends UnmarkedText {
  /** Uses of facts whose names make them sensitive (shared/sensitive.ts), in the order of the calls. */
  sensitiveFacts: FactUse[];
}

/** A fact whose value names another fact, and so on: stop somewhere. */
const MAX_PASSES = 16;

const HELPER_NAMES = [...Object.keys(pureHelpers), 'fact', 'hostfact', 'hosts', 'data'];

/**
 * Templates compiled in this process, for those rendered more than once: a module's state files
 * (once per instance, with other values of the same variables) and state files planned for many
 * hosts (govern diff, govern plan --facts DIR). Compiling is most of rendering. Templates with
 * partials are compiled each time, since their partials are looked up as they compile.
 */
const compiledOnce = new Map<string, { source: string; template: CompiledTemplate }>();

/**
 * Compiles every template it can: one that does not compile is undefined, its problems at its index,
 * so that the others still render and every problem of every file is told at once.
 */
function compileAll(inputs: TemplateInput[]): { compiled: (CompiledTemplate | undefined)[]; problems: Problem[][] } {
  const problems: Problem[][] = inputs.map(() => []);
  const compiled: (CompiledTemplate | undefined)[] = [];
  for (const [i, input] of inputs.entries()) {
    try {
      // A state file (no variables) is marked, and when straight, rendered without Handlebars' compiler.
      const options = input.vars ? { variables: Object.keys(input.vars), partials: input.partials, marks: input.marks ?? false, straight: input.marks ?? false } : { partials: input.partials, straight: true, kept: input.kept };
      const shape = input.vars ? `vars\0${input.marks ?? false}\0${Object.keys(input.vars).join('\0')}` : 'plain';
      const key = !input.partials ? `${input.file}\0${shape}` : undefined;
      const known = key !== undefined ? compiledOnce.get(key) : undefined;
      const template = known?.source === input.source ? known.template : compileTemplate(input.file, input.source, HELPER_NAMES, options);
      if (key !== undefined && known?.template !== template) compiledOnce.set(key, { source: input.source, template });
      compiled.push(template);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      compiled.push(undefined);
      problems[i].push(...e.problems.map((p) => described(p, input)));
    }
  }
  return { compiled, problems };
}

/** `{{log}}` lines go to stderr unless the caller takes them. */
const toStderr = (line: string) => process.stderr.write(`govern: ${line}\n`);

/** Renders every template; the result is in the same order as the inputs. */
export async function renderTemplates(inputs: TemplateInput[], sources: FactSources, onLog: (line: string) => void = toStderr): Promise<string[]> {
  return (await renderWithLines(inputs, sources, onLog)).map((rendered) => rendered.text);
}

/**
 * Renders every template, and tells which source line each rendered line came from. `{{log}}` lines
 * are given to onLog after the last pass only (earlier passes are thrown away, and would repeat them).
 */
export async function renderWithLines(inputs: TemplateInput[], sources: FactSources, onLog: (line: string) => void = toStderr): Promise<RenderedText[]> {
  const { outputs, problems } = await renderEach(inputs, sources, onLog);
  if (problems.length > 0) throw new UserError(problems);
  return outputs as RenderedText[];
}

/**
 * Renders every template it can: one that fails is undefined in outputs, and problems holds what
 * every one that failed says, in input order (the state phase goes on to read the others' problems).
 */
export async function renderEach(inputs: TemplateInput[], sources: FactSources, onLog: (line: string) => void = toStderr): Promise<{ outputs: (RenderedText | undefined)[]; problems: Problem[] }> {
  const { compiled, problems: compileProblems } = compileAll(inputs);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const pending = new PendingFacts();
    let used: FactUse[] = [];
    const helpers = wrapAll({
      ...pureHelpers,
      ...factHelpers(sources, pending, (use) => isSensitiveFact(use.name) && used.push(use)),
      ...dataHelpers(sources.data, (use) => used.push(use)),
    });
    const outputs: (RenderedText | undefined)[] = inputs.map(() => undefined);
    const problems = compileProblems.map((list) => [...list]);
    const logs: string[] = [];
    const secretValues: string[] = [];
    for (const [i, template] of compiled.entries()) {
      if (template === undefined) continue;
      used = [];
      const logsBefore = logs.length;
      const mask = inputs[i].mask ?? ((text: string) => text);
      try {
        const log = (line: number | undefined, text: string) => logs.push(mask(formatProblem({ file: template.file, line, message: text })));
        const text = template.render(helpers, log, inputs[i].vars);
        let lines = template.straight ? straightLines(text, template.straight) : unmarkLines(text);
        if (!lines) {
          // A value held a line break, and the lines of the unmarked template moved: render it again
          // with marks, its facts and log lines counted once.
          used = [];
          logs.length = logsBefore;
          lines = unmarkLines(template.straight!.marked().render(helpers, log, inputs[i].vars));
        }
        outputs[i] = { ...lines, sensitiveFacts: used };
        secretValues.push(...used.map((use) => use.value), ...(inputs[i].secrets ?? []));
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        // A helper's message may quote a sensitive fact's value (`yesno: "..." is not a boolean`).
        const secrets = [...used.map((use) => use.value), ...(inputs[i].secrets ?? [])].filter((value) => value !== '');
        secretValues.push(...secrets);
        const secretLines = new Set([...used.map((use) => use.line), ...(inputs[i].secretLines ?? [])]);
        problems[i].push(...e.problems.map((p) => described({ ...p, message: p.line !== undefined && secretLines.has(p.line) ? hiddenMessage(p.message) : maskText(p.message, secrets) }, inputs[i])));
      }
    }
    if (pending.empty) {
      // A log line may show a secret fact, of its own template or of another one (a variable).
      const secrets = [...new Set(secretValues.filter((value) => value !== ''))].sort((a, b) => b.length - a.length);
      logs.forEach((line) => onLog(maskText(line, secrets)));
      return { outputs, problems: problems.flat() };
    }
    await Promise.all([sources.local.load(pending.local), sources.remote?.load(pending.remote), pending.selections.size > 0 ? sources.inventory?.loadWhere([...pending.selections.values()]) : undefined]);
  }
  throw new UserError(`templates kept asking for new facts after ${MAX_PASSES} passes (a fact naming a host or fact that names another, and so on?)`);
}

/**
 * An error on a line that reads a sensitive value: a helper may have quoted it changed (`yesno`
 * lowercases it, JSON escapes it), which masking the value itself does not catch. Only the helper is named.
 */
function hiddenMessage(message: string): string {
  const helper = /^([A-Za-z_][\w-]*): /.exec(message)?.[1];
  return `${helper !== undefined ? `${helper}: ` : ''}an error on a line that reads a sensitive value (its message is hidden: it may quote the value)`;
}

function described(p: Problem, input: TemplateInput): Problem {
  return input.describe ? { ...p, message: input.describe(p.message) } : p;
}

function wrapAll(helpers: Record<string, HelperFn>): Record<string, HelperFn> {
  return Object.fromEntries(Object.entries(helpers).map(([name, fn]) => [name, withLine(withHelperName(name, fn))]));
}

function withHelperName(name: string, fn: HelperFn): HelperFn {
  return (...all) => {
    try {
      return fn(...all);
    } catch (e) {
      if (e instanceof HelperError) throw e;
      throw new HelperError(`${name}: ${(e as Error).message}`);
    }
  };
}
