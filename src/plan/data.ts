// The data step of planning: hierarchy.hcl at the tree's root rendered with the host's facts (as a
// state file is), parsed, and its levels' data files loaded (src/data/, docs/data.md). A tree without
// hierarchy.hcl has no data.
import fs from 'node:fs';
import path from 'node:path';
import { HIERARCHY_FILE } from '../data/hierarchy.js';
import { loadTreeData } from '../data/load.js';
import type { TreeData } from '../data/lookup.js';
import { parseHcl, type ValueSpans } from '../hcl/parse.js';
import { UserError } from '../shared/errors.js';
import { readSourceFile } from '../shared/source-file.js';
import { SourceLines } from '../state/source-lines.js';
import type { FactSources } from '../templates/fact-sources.js';
import { renderWithLines } from '../templates/render.js';

export function hierarchyFile(root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  const file = path.join(root, HIERARCHY_FILE);
  return fs.existsSync(file) ? file : undefined;
}

export async function readTreeData(root: string | undefined, sources: FactSources): Promise<TreeData | undefined> {
  const file = hierarchyFile(root);
  if (file === undefined) return undefined;
  const source = readSourceFile(file, root);
  // The levels come from facts alone: hierarchy.hcl cannot read data.
  const [rendered] = await renderWithLines([{ file, source }], { local: sources.local, remote: sources.remote });
  const lines = new SourceLines(file, source, rendered.text, rendered.sourceLines);
  let parsed;
  const spans: ValueSpans = new Map();
  try {
    parsed = parseHcl(file, rendered.text, spans);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    throw new UserError(e.problems.map((p) => lines.relocate(p)));
  }
  // A level is located at its own line of the list, where a warning about it points.
  const lineOf = (offset: number) => rendered.text.slice(0, offset).split('\n').length;
  const itemAt = (key: string) => {
    const span = spans.get(key);
    return span === undefined ? undefined : lines.where(lineOf(span.start));
  };
  return loadTreeData(root!, parsed, (line) => lines.where(line), source, itemAt);
}
