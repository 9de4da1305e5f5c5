// Keys a runner's rules describe as paths relative to the state file (the file runner's `source`,
// a directory with recurse = true, a regular file otherwise) are looked at while planning: such a
// path is part of the state tree, which planning reads anyway, and one that is missing or of the
// wrong kind is a mistake in the tree, refused at its line before anything is applied. An absolute
// path names the host's own files: only the runner judges it, when it applies. A relative path of a
// tree stays inside the tree's directory, links included (docs/security.md, "Untrusted revisions").
import fs from 'node:fs';
import path from 'node:path';
import { describeCondition, holds } from '../shared/arguments.js';
import type { Condition, RelativePathKind, RunnerDescription } from '../shared/description.js';
import type { Problem } from '../shared/errors.js';
import { describeFileKind } from '../shared/file-kind.js';
import { isInside } from '../shared/source-file.js';
import { encodeValues } from '../shared/protocol.js';
import { masker } from '../shared/sensitive.js';
import { keyLocation, type Resource } from '../state/resource.js';

export function checkRelativePaths(resources: Resource[], descriptionOf: (type: string) => RunnerDescription | undefined, root?: string): Problem[] {
  const problems: Problem[] = [];
  const rulesOf = new Map<string, RelativePathRule[]>();
  for (const r of resources) {
    const description = descriptionOf(r.type);
    let rules = rulesOf.get(r.type);
    if (rules === undefined) rulesOf.set(r.type, (rules = relativePathRules(description)));
    if (rules.length === 0) continue;
    // Only the keys asked for are encoded (a file's contents among the others would be, for nothing).
    const texts = (key: string): string[] | undefined => {
      if (!Object.prototype.hasOwnProperty.call(r.attrs, key)) return undefined;
      const given = encodeValues(r.attrs[key]);
      return given.length > 0 ? given : undefined;
    };
    const valueOf = (key: string): string | undefined => {
      const given = texts(key);
      if (given) return given.length === 1 ? given[0] : undefined;
      const fallback = description?.keys?.[key]?.default;
      return fallback === undefined ? undefined : encodeValues(fallback)[0];
    };
    for (const rule of rules) {
      const relative = rule.keys.flatMap(([key, kind]) => {
        const given = texts(key);
        return given?.length !== 1 || given[0] === '' || path.isAbsolute(given[0]) ? [] : [{ key, kind, given: given[0] }];
      });
      if (relative.length === 0 || !holds(rule.when, valueOf)) continue;
      for (const { key, kind, given } of relative) {
        const full = path.resolve(r.stateDir, given);
        const problem = outsideProblem(full, root) ?? kindProblem(full, kind);
        if (problem === undefined) continue;
        const message = `${r.ref}: ${key} ${JSON.stringify(given)} must be ${kind === 'file' ? 'a regular file' : 'a directory'} for ${describeCondition(rule.when)}: ${full} ${problem}`;
        problems.push({ ...keyLocation(r, key), message: masker(r)(message) });
      }
    }
  }
  return problems;
}

interface RelativePathRule {
  when: Condition;
  keys: [string, RelativePathKind][];
}

/** A description's rules that name relative paths, read once per runner. */
function relativePathRules(description: RunnerDescription | undefined): RelativePathRule[] {
  return (description?.rules ?? []).flatMap((rule) => ('relative_paths' in rule ? [{ when: rule.when, keys: Object.entries(rule.relative_paths) }] : []));
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
