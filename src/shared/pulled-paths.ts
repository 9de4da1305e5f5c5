// A tree from `govern pull` is read from its checkout in the pull cache
// (VAR_DIR/pull/NAME-HASH/trees/COMMIT), but a user knows it as the repository: every message that
// names a file of it says the file's path in the repository and the commit
// (`site.hcl:4 (commit abc1234)`), at the same exits maskSecrets guards (writers.ts, priority.ts).
const trees = new Map<string, string>();
let pattern: RegExp | undefined;

/** From now on, a path under `dir` (a pulled checkout of `commit`) is shown as the repository's. */
export function showPulledTree(dir: string, commit: string): void {
  if (trees.has(dir)) return;
  trees.set(dir, commit.slice(0, 7));
  const dirs = [...trees.keys()].sort((a, b) => b.length - a.length).map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // The directory, then its file (up to a blank, a quote or a colon) and its line and column if given.
  pattern = new RegExp(`(${dirs.join('|')})/([^\\s:"'()]+)((?::\\d+){0,2})`, 'g');
}

/**
 * The text with each path of a pulled checkout as the repository's, `FILE[:LINE[:COLUMN]]`, for a
 * report (`govern run --json`, last-run.json), which holds the commit in a field of its own.
 */
export function repositoryPaths(text: string): string {
  if (pattern === undefined) return text;
  return text.replace(pattern, (_, _dir: string, file: string, line: string) => `${file}${line}`);
}

/** The text with each path of a pulled checkout as `FILE[:LINE[:COLUMN]] (commit abc1234)`. */
export function pulledPaths(text: string): string {
  if (pattern === undefined) return text;
  return text.replace(pattern, (_, dir: string, file: string, line: string) => `${file}${line} (commit ${trees.get(dir)})`);
}
