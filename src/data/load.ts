// The data phase: from hierarchy.hcl (already rendered with the host's facts, and parsed) to the
// data this host sees. A level whose file does not exist is skipped, with a warning when its name
// came from facts (a misspelt role must not silently drop the role's data) and an error when it is
// required; every problem of every data file is reported at once, before any template reads a value.
import fs from 'node:fs';
import path from 'node:path';
import { formatLocation, UserError, type Location, type Problem } from '../shared/errors.js';
import { didYouMean } from '../shared/suggest.js';
import type { HclFile } from '../hcl/syntax.js';
import { DATA_EXTENSIONS, findLevelFile, readDataFile } from './data-files.js';
import { DATA_DIR, readHierarchy, type Level } from './hierarchy.js';
import { TreeData, type LoadedLevel } from './lookup.js';

/** written: hierarchy.hcl as written, before rendering: a level not in it literally is named from facts. */
export function loadTreeData(root: string, hierarchy: HclFile, where: (renderedLine: number) => Location, written = '', itemAt?: (key: string) => Location | undefined): TreeData {
  const parsed = readHierarchy(hierarchy, where, itemAt);
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const loaded: LoadedLevel[] = [];
  for (const level of parsed.levels) {
    try {
      const file = findLevelFile(root, level.name);
      loaded.push({ name: level.name, ...(file !== undefined ? { data: readDataFile(file, root) } : {}) });
      if (file !== undefined) continue;
      const fromFacts = !written.includes(JSON.stringify(level.name));
      if (level.required) problems.push({ ...level.at, message: `level "${level.name}" is required, and it has no file${missingFile(root, level)}` });
      else if (fromFacts && !level.optional) warnings.push(`${formatLocation(level.at)}: ${level.name}: no file${missingFile(root, level)}; this level is named from facts: check them, or write it { name = "...", optional = true } when a host may have none`);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...e.problems);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  return new TreeData(parsed, loaded, warnings);
}

/** ` (data/roles/wbe.hcl, .json, .yaml or .yml; did you mean "roles/web"?)`: the files the level's directory has. */
function missingFile(root: string, level: Level): string {
  const dir = path.posix.dirname(level.name);
  let names: string[] = [];
  try {
    names = fs.readdirSync(path.join(root, DATA_DIR, dir)).flatMap((name) => {
      const ext = DATA_EXTENSIONS.find((e) => name.endsWith(e));
      return ext === undefined ? [] : [path.posix.join(dir, name.slice(0, -ext.length))];
    });
  } catch {
    // No such directory: nothing to suggest.
  }
  const [first, ...rest] = DATA_EXTENSIONS;
  return ` (${DATA_DIR}/${level.name}${first}, ${rest.slice(0, -1).join(', ')} or ${rest[rest.length - 1]})${didYouMean(level.name, names)}`;
}
