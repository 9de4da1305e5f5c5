// State files to resources: read, render (Handlebars), parse (HCL), recover the source order.
import fs from 'node:fs';
import { UserErrors } from '../errors.js';
import type { FactSources } from '../templates/fact-sources.js';
import { renderTemplates } from '../templates/render.js';
import { listStateFiles } from './files.js';
import { parseHcl } from './hcl.js';
import type { Resource } from './resource.js';
import { scanTopLevel } from './scan-blocks.js';
import { SourceLines } from './source-lines.js';
import { toResources } from './to-resources.js';

export interface StateFileText {
  file: string;
  source: string;
  rendered: string;
}

export async function renderStateFiles(target: string, facts: FactSources): Promise<StateFileText[]> {
  const inputs = listStateFiles(target).map((file) => ({ file, source: fs.readFileSync(file, 'utf8') }));
  const rendered = await renderTemplates(inputs, facts);
  return inputs.map((input, i) => ({ ...input, rendered: rendered[i] }));
}

/** Every resource of the state tree, in definition order; all problems are reported at once. */
export async function loadState(target: string, facts: FactSources): Promise<Resource[]> {
  const texts = await renderStateFiles(target, facts);
  const problems: string[] = [];
  const resources: Resource[] = [];
  for (const text of texts) {
    const lines = new SourceLines(text.file, text.source, text.rendered);
    let parsed: Record<string, unknown>;
    try {
      parsed = await parseHcl(text.file, text.rendered);
    } catch (e) {
      problems.push(lines.relocate((e as Error).message));
      continue;
    }
    const result = toResources(text.file, scanTopLevel(text.rendered), parsed, lines, resources.length);
    problems.push(...result.problems);
    resources.push(...result.resources);
  }
  problems.push(...duplicates(resources));
  if (problems.length > 0) throw new UserErrors(problems);
  return resources;
}

function duplicates(resources: Resource[]): string[] {
  const first = new Map<string, Resource>();
  const problems: string[] = [];
  for (const r of resources) {
    const earlier = first.get(r.ref);
    if (earlier) problems.push(`${r.where}: ${r.ref} is declared twice (first at ${earlier.where})`);
    else first.set(r.ref, r);
  }
  return problems;
}
