// Keys a runner's rules describe as paths relative to the state file (the file runner's `source`,
// a directory with recurse = true, a regular file otherwise) are looked at while planning: such a
// path is part of the state tree, which planning reads anyway, and one that is missing or of the
// wrong kind is a mistake in the tree, refused at its line before anything is applied. An absolute
// path names the host's own files: only the runner judges it, when it applies. A relative path of a
// tree stays inside the tree's directory, links included (docs/security.md, "Untrusted revisions").
import fs from 'node:fs';
import path from 'node:path';
import { describeCondition, holds } from '../shared/arguments.js';
import type { RelativePathKind, RunnerDescription } from '../shared/description.js';
import type { Problem } from '../shared/errors.js';
import { describeFileKind } from '../shared/file-kind.js';
import { isInside } from '../shared/source-file.js';
import { encodeValues, paramsOf } from '../shared/protocol.js';
import { masker } from '../shared/sensitive.js';
import { keyLocation, type Resource } from '../state/resource.js';

export function checkRelativePaths(resources: Resource[], descriptionOf: (type: string) => RunnerDescription | undefined, root?: string): Problem[] {
  const problems: Problem[] = [];
  for (const r of resources) {
    const description = descriptionOf(r.type);
    const rules = (description?.rules ?? []).flatMap((rule) => ('relative_paths' in rule ? [rule] : []));
    if (rules.length === 0) continue;
    const params = paramsOf(r.attrs);
    const valueOf = (key: string): string | undefined => {
      const given = params.texts(key);
      if (given) return given.length === 1 ? given[0] : undefined;
      const fallback = description?.keys?.[key]?.default;
      return fallback === undefined ? undefined : encodeValues(fallback)[0];
    };
    for (const rule of rules) {
      if (!holds(rule.when, valueOf)) continue;
      for (const [key, kind] of Object.entries(rule.relative_paths)) {
        const given = params.texts(key);
        if (given?.length !== 1 || given[0] === '' || path.isAbsolute(given[0])) continue;
        const full = path.resolve(r.stateDir, given[0]);
        const problem = outsideProblem(full, root) ?? kindProblem(full, kind);
        if (problem === undefined) continue;
        const message = `${r.ref}: ${key} ${JSON.stringify(given[0])} must be ${kind === 'file' ? 'a regular file' : 'a directory'} for ${describeCondition(rule.when)}: ${full} ${problem}`;
        problems.push({ ...keyLocation(r, key), message: masker(r)(message) });
      }
    }
  }
  return problems;
}

/** Why the path leads out of the tree (by `..` or by a link), or undefined. */
function outsideProblem(full: string, root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  const top = path.resolve(root);
  if (!isInside(full, top)) return 'is outside the state tree: a relative path stays inside the tree\'s directory';
  let real: string;
  try {
    real = fs.realpathSync(full);
  } catch {
    return undefined; // missing: said as such
  }
  return isInside(real, fs.realpathSync(top)) ? undefined : `leads by a link to ${real}, outside the state tree: a relative path stays inside the tree's directory`;
}

/** Why the path is not of the kind (links followed), or undefined when it is. */
function kindProblem(full: string, kind: RelativePathKind): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(full);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be read (${code ?? (e as Error).message})`;
  }
  if (kind === 'file' ? st.isFile() : st.isDirectory()) return undefined;
  return `is ${st.isFile() ? 'a regular file' : describeFileKind(st)}`;
}
