// State files to resources: read, render (Handlebars), parse (HCL, src/hcl/parse.ts).
import type { Check } from '../checks/kinds.js';
import { treeRoot } from '../config/paths.js';
import { parseHcl } from '../hcl/parse.js';
import type { HclFile } from '../hcl/syntax.js';
import { formatLocation, UserError, type Problem } from '../shared/errors.js';
import type { PlanningSecrets } from '../shared/planning-secrets.js';
import { maskText } from '../shared/sensitive.js';
import type { FactUse } from '../templates/fact-helpers.js';
import type { FactSources } from '../templates/fact-sources.js';
import type { KeptTemplates } from '../templates/engine.js';
import { renderEach, type TemplateInput } from '../templates/render.js';
import { readSourceFile } from '../shared/source-file.js';
import { listStateFiles } from './files.js';
import { instancePath, type InstanceDecl, type ModuleMembership } from './modules/declarations.js';
import type { ParseCache } from './parse-cache.js';
import type { Resource } from './resource.js';
import { SourceLines } from './source-lines.js';
import { taintInstances, taintResources } from './taint.js';
import { toResources } from './to-resources.js';

export interface StateFileText {
  file: string;
  source: string;
  rendered: string;
  /** The source line of each rendered line, when known (see templates/line-marks.ts). */
  sourceLines: (number | undefined)[];
  /** Sensitive facts the file used: they taint the resources they reach (taint.ts). */
  sensitiveFacts?: FactUse[];
  /** The module instance the file is rendered for, when it is a module's (modules/expand.ts). */
  module?: ModuleMembership;
}

/** A tree's resources and module instances, with the problems found, before any is thrown. */
export interface ParsedFiles {
  resources: Resource[];
  instances: InstanceDecl[];
  problems: Problem[];
  /** The `health` blocks of the files, in file then source order. */
  health: Check[];
}

/** Every state file rendered that can be; the problems of those that cannot, to report with the others'. */
export async function renderStateFiles(target: string, facts: FactSources, kept?: KeptTemplates): Promise<{ texts: StateFileText[]; problems: Problem[] }> {
  const inputs: TemplateInput[] = [];
  const problems: Problem[] = [];
  const root = treeRoot(target);
  for (const file of listStateFiles(target)) {
    try {
      // The file named on the command line is the user's choice; the files of a tree stay inside it.
      inputs.push({ file, source: readSourceFile(file, file === target ? undefined : root), kept });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...e.problems);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  const { outputs, problems: failed } = await renderEach(inputs, facts);
  const texts = inputs.flatMap((input, i) => {
    const rendered = outputs[i];
    return rendered ? [{ ...input, rendered: rendered.text, sourceLines: rendered.sourceLines, sensitiveFacts: rendered.sensitiveFacts }] : [];
  });
  return { texts, problems: failed };
}

/**
 * The resources and module instances of rendered state files, numbered from firstIndex in
 * definition order. `secrets` learns every secret met on the way, also when a problem stops planning.
 */
export function parseFiles(texts: StateFileText[], secrets?: PlanningSecrets, firstIndex = 0, cache?: ParseCache): ParsedFiles {
  const problems: Problem[] = [];
  const resources: Resource[] = [];
  const instances: InstanceDecl[] = [];
  const health: Check[] = [];
  for (const text of texts) {
    // A module's file, or one that read a sensitive fact or data, is parsed every time (parse-cache.ts).
    const keep = cache && text.module === undefined && (text.sensitiveFacts ?? []).length === 0 ? cache : undefined;
    const kept = keep?.read(text, firstIndex + resources.length);
    if (kept) {
      kept.resources.forEach((r) => secrets?.addResource(r));
      resources.push(...kept.resources);
      instances.push(...kept.instances);
      continue;
    }
    const lines = new SourceLines(text.file, text.source, text.rendered, text.sourceLines);
    secrets?.addFactValues((text.sensitiveFacts ?? []).map((use) => use.value));
    let parsed: HclFile;
    try {
      parsed = parseHcl(text.file, text.rendered);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      secrets?.addUnparsed(text.file, text.rendered, (text.sensitiveFacts ?? []).length > 0);
      problems.push(...e.problems.map((p) => withoutSecrets(lines.relocate(p), text.sensitiveFacts ?? [])));
      continue;
    }
    const result = toResources(text.file, parsed.items, lines, firstIndex + resources.length, { inModule: text.module !== undefined, templated: text.module !== undefined && text.source.includes('{{') });
    health.push(...result.health);
    // A file with health blocks is parsed every time: the cache keeps resources and instances only.
    if (keep && result.problems.length === 0 && result.health.length === 0 && !result.resources.some((r) => r.sensitive || r.attrs.show_diff === false)) keep.parsed(text, result.resources, result.instances, firstIndex + resources.length);
    if (text.module) for (const r of result.resources) r.module = text.module;
    taintResources(result.resources, text.sensitiveFacts ?? []);
    result.resources.forEach((r) => secrets?.addResource(r));
    problems.push(...result.problems);
    resources.push(...result.resources);
    const secretValues = (text.sensitiveFacts ?? []).map((use) => use.value).filter((value) => value !== '');
    const tainted = taintInstances(result.instances, result.resources, text.sensitiveFacts ?? []);
    // An instance declared in a module's file is within the instance that file was rendered for.
    const declared = text.module ? tainted.map((i) => ({ ...i, within: text.module })) : tainted;
    instances.push(...(secretValues.length > 0 ? declared.map((i) => ({ ...i, sensitiveValues: secretValues })) : declared));
  }
  return { resources, instances, problems, health };
}

/** A syntax error may quote what the file holds (a bare word): never the value of a sensitive fact it used. */
function withoutSecrets(problem: Problem, uses: readonly FactUse[]): Problem {
  if (uses.length === 0) return problem;
  const secrets = [...new Set(uses.map((use) => use.value).filter((value) => value !== ''))].sort((a, b) => b.length - a.length);
  return { ...problem, message: maskText(problem.message, secrets) };
}

/** A resource declared twice, in the tree or by module instances: each instance is named. */
export function duplicates(resources: Resource[]): Problem[] {
  const first = new Map<string, Resource>();
  const problems: Problem[] = [];
  const by = (r: Resource) => (r.module ? ` by module "${instancePath(r.module)}"` : '');
  for (const r of resources) {
    const earlier = first.get(r.ref);
    if (earlier) problems.push({ ...r.at, message: `${r.ref} is declared twice${by(r)} (first at ${formatLocation(earlier.at)}${by(earlier)})` });
    else first.set(r.ref, r);
  }
  return problems;
}
