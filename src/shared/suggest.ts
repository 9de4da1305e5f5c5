// "Did you mean": the known word closest to a misspelt one, for messages about unknown keys,
// options, commands, references and runner names.

/** Edit distance with adjacent transpositions counted as one edit ("onwer" -> "owner" is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[rows - 1][cols - 1];
}

/**
 * The candidate closest to word, if it is close enough to be a likely typo: at most a third of the
 * word's length in edits (at least 1), or the same word but for case, `-` versus `_`, or one being
 * the other without separators (`refreshonly` for `refresh_only`). Ties go to the earlier candidate.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = squash(candidate) === squash(word) ? 0 : editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/** Words a Puppet, Ansible or systemd user reaches for, and govern's word for each. */
const OTHER_TOOLS: Record<string, string> = { started: 'running', restarted: 'running', enabled: 'true', disabled: 'false' };

/** ` (did you mean "owner"?)`, or nothing. Another tool's word gets govern's (`started`: "running"). */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  const match = closest(word, list);
  if (match !== undefined) return ` (did you mean "${match}"?)`;
  const ours = OTHER_TOOLS[word];
  return ours !== undefined && list.includes(ours) ? ` (did you mean "${ours}"? govern says ${ours} where other tools say ${word})` : '';
}
