// A file's content from a template (`template` and `vars`, docs/templates.md): rendered by the core
// while planning, before anything is applied, into the `contents` the file runner receives. Every
// missing template, partial or variable of the whole tree is reported at once, with its file and line.
import path from 'node:path';
import { TREE_DIRS } from '../config/paths.js';
import { UserError, type Problem } from '../shared/errors.js';
import { masker } from '../shared/sensitive.js';
import type { FactSources } from '../templates/fact-sources.js';
import { findTemplate, partialLookup, treeOfTemplate } from '../templates/locate.js';
import { renderWithLines, type RenderedText, type TemplateInput } from '../templates/render.js';
import { keyLocation, TEMPLATE_KEY, type Resource } from './resource.js';
import { readSourceFile } from '../shared/source-file.js';

/**
 * The resources with their templates rendered into `contents` (the others as they are). A template
 * that uses a sensitive fact makes its resource sensitive. The tree's templates (and any given by
 * path) are read only inside `root`, the tree's directory.
 */
export async function renderResourceTemplates(resources: Resource[], dirs: readonly string[], sources: FactSources, root?: string): Promise<Resource[]> {
  const templated = resources.filter((r) => r.template !== undefined);
  if (templated.length === 0) return resources;
  const problems: Problem[] = [];
  const inputs: TemplateInput[] = [];
  const owners: Resource[] = [];
  const lookups = new Map<string, ReturnType<typeof partialLookup>>();
  for (const r of templated) {
    const at = keyLocation(r, TEMPLATE_KEY);
    // A module's own templates.d/ comes first for its resources (their partials too).
    const searched = r.module ? [path.join(r.module.dir, TREE_DIRS.templates), ...dirs] : dirs;
    const found = findTemplate(r.template!.name, searched, r.stateDir);
    const partials = lookups.get(searched[0]) ?? partialLookup(searched, root);
    lookups.set(searched[0], partials);
    if ('missing' in found) {
      problems.push({ ...at, message: `${r.ref}: template "${r.template!.name}": ${found.missing}` });
      continue;
    }
    try {
      const mask = masker(r);
      const describe = (message: string) => mask(`${message} (template of ${r.ref})`);
      inputs.push({ file: found.file, source: readSourceFile(found.file, treeOfTemplate(r.template!.name, found.file, root)), vars: r.template!.vars, partials, describe, mask });
      owners.push(r);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      // A problem of the whole file (not at a line of it) is said at the line naming the template.
      problems.push(...e.problems.map((p) => (p.line === undefined ? { ...at, message: `${r.ref}: template "${r.template!.name}": ${p.message}` } : { ...p, message: `${r.ref}: template: ${p.message}` })));
    }
  }
  let rendered: RenderedText[] = [];
  try {
    rendered = await renderWithLines(inputs, sources);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    problems.push(...e.problems);
  }
  if (problems.length > 0) throw new UserError(problems);
  const contents = new Map(owners.map((r, i) => [r, { ...rendered[i], file: inputs[i].file }]));
  return resources.map((r) => {
    const out = contents.get(r);
    if (!out) return r;
    const sensitive = r.sensitive || out.sensitiveFacts.length > 0;
    // The rendered content is the resource's `contents`, and a message about it points at `template`.
    return { ...r, template: { ...r.template!, file: out.file }, attrs: { ...r.attrs, contents: out.text }, keyAt: { ...r.keyAt, contents: keyLocation(r, TEMPLATE_KEY) }, ...(sensitive ? { sensitive } : {}) };
  });
}
