// State files to resources: read, render (Handlebars), parse (HCL), recover the source order.
import { formatLocation, UserError, type Problem } from '../shared/errors.js';
import type { FactUse } from '../templates/fact-helpers.js';
import type { FactSources } from '../templates/fact-sources.js';
import { renderWithLines, type TemplateInput } from '../templates/render.js';
import { readSourceFile } from '../templates/source-file.js';
import { listStateFiles } from './files.js';
import type { InstanceDecl, ModuleMembership } from './modules/declarations.js';
import { noCache, type ParseCache } from './parse-cache.js';
import { parseTexts } from './parse-pool.js';
import type { Resource } from './resource.js';
import { scanTopLevel, type TopLevelItem } from './scan-blocks.js';
import { SourceLines } from './source-lines.js';
import { taintResources } from './taint.js';
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
}

export async function renderStateFiles(target: string, facts: FactSources): Promise<StateFileText[]> {
  const inputs: TemplateInput[] = [];
  const problems: Problem[] = [];
  for (const file of listStateFiles(target)) {
    try {
      inputs.push({ file, source: readSourceFile(file) });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...e.problems);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  const rendered = await renderWithLines(inputs, facts);
  return inputs.map((input, i) => ({ ...input, rendered: rendered[i].text, sourceLines: rendered[i].sourceLines, sensitiveFacts: rendered[i].sensitiveFacts }));
}

/** Every resource of the state tree, in definition order; all problems are reported at once. */
export async function loadState(target: string, facts: FactSources, cache: ParseCache = noCache): Promise<Resource[]> {
  return parseStateFiles(await renderStateFiles(target, facts), cache);
}

/** The resources of rendered state files, in definition order; all problems are reported at once. */
export async function parseStateFiles(texts: StateFileText[], cache: ParseCache = noCache, workerMinBytes?: number): Promise<Resource[]> {
  const parsed = await parseFiles(texts, cache, workerMinBytes);
  const problems = [...parsed.problems, ...duplicates(parsed.resources)];
  if (problems.length > 0) throw new UserError(problems);
  return parsed.resources;
}

/** The resources and module instances of rendered state files, numbered from firstIndex in definition order. */
export async function parseFiles(texts: StateFileText[], cache: ParseCache = noCache, workerMinBytes?: number, firstIndex = 0): Promise<ParsedFiles> {
  const problems: Problem[] = [];
  const resources: Resource[] = [];
  const instances: InstanceDecl[] = [];
  const known = texts.map((text) => cachedFile(cache.get(text.rendered)));
  const unknown = texts.filter((_, i) => !known[i]);
  const outcomes = await parseTexts(unknown.map((text) => ({ file: text.file, text: text.rendered })), workerMinBytes);
  let nextOutcome = 0;
  for (const [i, text] of texts.entries()) {
    const lines = new SourceLines(text.file, text.source, text.rendered, text.sourceLines);
    const cached = known[i];
    const outcome = cached ? { parsed: cached.hcl } : outcomes[nextOutcome++];
    if ('problems' in outcome) {
      problems.push(...outcome.problems.map((p) => lines.relocate(p)));
      continue;
    }
    const items = cached?.items ?? scanTopLevel(text.rendered);
    const result = toResources(text.file, items, outcome.parsed, lines, firstIndex + resources.length, { inModule: text.module !== undefined, templated: text.module !== undefined && text.source.includes('{{') });
    if (text.module) for (const r of result.resources) r.module = text.module;
    const tainted = taintResources(result.resources, text.sensitiveFacts ?? []);
    // A file that holds a secret is parsed every time rather than kept on disk (one with problems too:
    // a resource refused there may have been a sensitive one).
    if (!cached && !tainted && result.problems.length === 0 && !result.resources.some((r) => r.sensitive)) cache.put(text.rendered, { hcl: outcome.parsed, items });
    problems.push(...result.problems);
    resources.push(...result.resources);
    const secrets = (text.sensitiveFacts ?? []).map((use) => use.value).filter((value) => value !== '');
    instances.push(...(secrets.length > 0 ? result.instances.map((i) => ({ ...i, sensitiveValues: secrets })) : result.instances));
  }
  return { resources, instances, problems };
}

/** What the cache keeps of a rendered state file: hcl2json's output and the scanned items, both found from the text alone. */
interface CachedFile {
  hcl: Record<string, unknown>;
  items: TopLevelItem[];
}

function cachedFile(entry: Record<string, unknown> | undefined): CachedFile | undefined {
  if (!entry || entry.hcl === null || typeof entry.hcl !== 'object' || !Array.isArray(entry.items)) return undefined;
  return entry as unknown as CachedFile;
}

/** A resource declared twice, in the tree or by module instances: each instance is named. */
export function duplicates(resources: Resource[]): Problem[] {
  const first = new Map<string, Resource>();
  const problems: Problem[] = [];
  const by = (r: Resource) => (r.module ? ` by module "${r.module.instance}"` : '');
  for (const r of resources) {
    const earlier = first.get(r.ref);
    if (earlier) problems.push({ ...r.at, message: `${r.ref} is declared twice${by(r)} (first at ${formatLocation(earlier.at)}${by(earlier)})` });
    else first.set(r.ref, r);
  }
  return problems;
}
