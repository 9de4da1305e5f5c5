// A data file written in HCL: top-level attributes whose values are literals (strings, numbers,
// booleans, lists, maps), as the parser decodes them. A block has no meaning in a data file.
import type { HclFile } from '../hcl/syntax.js';
import { UserError, type Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import type { DataFile } from './source.js';

export function hclDataFile(file: string, parsed: HclFile): DataFile {
  const problems: Problem[] = [];
  const entries: [string, AttrValue][] = [];
  const lines = new Map<string, number>();
  for (const item of parsed.items) {
    if (item.kind === 'block') {
      problems.push({ file, line: item.at.line, message: `block "${item.type}": a data file holds only attributes (key = value; a map for nested keys)` });
      continue;
    }
    if (lines.has(item.name)) {
      problems.push({ file, line: item.at.line, message: `"${item.name}" is set twice (first at line ${lines.get(item.name)})` });
      continue;
    }
    lines.set(item.name, item.at.line);
    entries.push([item.name, item.value]);
  }
  if (problems.length > 0) throw new UserError(problems);
  return { file, values: Object.fromEntries(entries), lines };
}
