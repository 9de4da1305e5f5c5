// The data phase: from hierarchy.hcl (already rendered with the host's facts, and parsed) to the
// data this host sees. A level whose file does not exist is skipped; every problem of every data
// file is reported at once, before any template reads a value.
import { UserError, type Location, type Problem } from '../shared/errors.js';
import type { HclFile } from '../hcl/syntax.js';
import { findLevelFile, readDataFile } from './data-files.js';
import { readHierarchy } from './hierarchy.js';
import { TreeData, type LoadedLevel } from './lookup.js';

export function loadTreeData(root: string, hierarchy: HclFile, where: (renderedLine: number) => Location): TreeData {
  const parsed = readHierarchy(hierarchy, where);
  const problems: Problem[] = [];
  const loaded: LoadedLevel[] = [];
  for (const level of parsed.levels) {
    try {
      const file = findLevelFile(root, level.name);
      loaded.push({ name: level.name, ...(file !== undefined ? { data: readDataFile(file, root) } : {}) });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...e.problems);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  return new TreeData(parsed, loaded);
}
