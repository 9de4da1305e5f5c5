// A unified diff of two texts, line by line: Myers' O(ND) shortest edit script after trimming the
// common head and tail, grouped into hunks with three lines of context, as `diff -u` prints them.

export interface DiffOptions {
  context?: number;
  /** Give up (return undefined) past this much work: a huge rewrite is not worth a log page. */
  maxWork?: number;
}

type Op = { kind: '=' | '-' | '+'; line: string };

/** Lines of `diff -u old new`, without a trailing newline on each; [] when equal; undefined when too costly. */
export function unifiedDiff(oldText: string, newText: string, oldLabel: string, newLabel: string, options: DiffOptions = {}): string[] | undefined {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = editScript(a, b, options.maxWork ?? 50_000_000);
  if (!ops) return undefined;
  if (ops.every((op) => op.kind === '=')) return [];
  return [`--- ${oldLabel}`, `+++ ${newLabel}`, ...hunks(ops, options.context ?? 3)];
}

/** Content a text diff makes no sense for: a NUL byte, or bytes that are not UTF-8. */
export function isBinary(bytes: Buffer): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** Lines with their terminator, so a missing final newline is a difference of its own. */
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}

function editScript(a: string[], b: string[], maxWork: number): Op[] | undefined {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail), maxWork);
  if (!middle) return undefined;
  const same = (lines: string[]): Op[] => lines.map((line) => ({ kind: '=', line }));
  return [...same(a.slice(0, head)), ...middle, ...same(a.slice(a.length - tail))];
}

/**
 * Myers (1986): for each edit count d, the furthest-reaching path on every diagonal k = x - y.
 * Each round's frontier (diagonals -d-1..d+1) is kept to walk the path back afterwards.
 */
/** About 16 MB of frontiers at most; a diff of more changed lines than this is not read anyway. */
const MAX_EDITS = 2000;

function myers(a: string[], b: string[], maxWork: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let work = 0;
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      const snakeFrom = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      work += 1 + x - snakeFrom;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    work += d;
    // The trace keeps a frontier per edit count, O(d²) memory: past MAX_EDITS the diff is not worth it.
    if (work > maxWork || d > MAX_EDITS) return undefined;
  }

  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const frontier = trace[d];
    const at = (k: number) => frontier[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: '=', line: a[--x] });
      y--;
    }
    if (x === prevX) ops.push({ kind: '+', line: b[--y] });
    else ops.push({ kind: '-', line: a[--x] });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: '=', line: a[--x] });
    y--;
  }
  return ops.reverse();
}

/** Groups the edit script into `@@ -l,s +l,s @@` hunks with `context` lines around each change. */
function hunks(ops: Op[], context: number): string[] {
  const out: string[] = [];
  // Old and new line numbers (0-based) before each op.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 0;
  let p = 0;
  for (const op of ops) {
    oldAt.push(o);
    newAt.push(p);
    if (op.kind !== '+') o++;
    if (op.kind !== '-') p++;
  }
  let i = 0;
  while (i < ops.length) {
    if (ops[i].kind === '=') {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i; // exclusive; extend while the next change is within 2 * context
    for (;;) {
      while (end < ops.length && ops[end].kind !== '=') end++;
      let next = end;
      while (next < ops.length && ops[next].kind === '=') next++;
      if (next < ops.length && next - end <= 2 * context) end = next;
      else {
        end = Math.min(ops.length, end + context);
        break;
      }
    }
    const slice = ops.slice(start, end);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(oldAt[start], oldCount)} +${range(newAt[start], newCount)} @@`);
    for (const op of slice) {
      const prefix = op.kind === '=' ? ' ' : op.kind;
      if (op.line.endsWith('\n')) out.push(prefix + op.line.slice(0, -1));
      else out.push(prefix + op.line, '\\ No newline at end of file');
    }
    i = end;
  }
  return out;
}

/** diff -u's range: "start,count" (1-based), "start" for one line, "before,0" for none. */
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  if (count === 1) return `${start + 1}`;
  return `${start + 1},${count}`;
}
