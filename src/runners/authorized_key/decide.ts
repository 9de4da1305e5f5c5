// The authorized_key decision: the file's lines + the key wanted -> the new lines and the message.
// Pure: the decision table of docs/authorized_key.md. A line is found by its key (type and
// base64), whatever its options and comment.

export interface KeyLine {
  /** The line as it is in the file. */
  text: string;
  /** The base64 key of a key line; undefined for a comment, a blank or an unreadable line. */
  key?: string;
}

export interface WantedKey {
  ensure: 'present' | 'absent';
  key: string;
  /** present: the whole line the key should have. */
  line?: string;
  exclusive: boolean;
}

export interface KeysPlan {
  changed: boolean;
  /** The file's new lines, when they change. */
  lines?: string[];
  /** What was done, lower case: "added the key", "updated the key's line", "removed 2 other keys". */
  parts: string[];
}

/** The base64 key of a line: the field after the first key type, options before it skipped. */
export function keyOfLine(text: string, types: readonly string[]): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  const fields = trimmed.split(/\s+/);
  for (let i = 0; i < fields.length - 1; i++) if (types.includes(fields[i])) return fields[i + 1];
  return undefined;
}

export function decideKeys(wanted: WantedKey, current: KeyLine[]): KeysPlan {
  const parts: string[] = [];
  const mine = current.filter((l) => l.key === wanted.key);
  if (wanted.ensure === 'absent') {
    if (mine.length === 0) return { changed: false, parts: ['key absent'] };
    return { changed: true, lines: current.filter((l) => l.key !== wanted.key).map((l) => l.text), parts: [mine.length === 1 ? 'removed the key' : `removed the key's ${mine.length} lines`] };
  }
  const line = wanted.line!;
  let lines: string[];
  if (mine.length === 0) {
    lines = [...current.map((l) => l.text), line];
    parts.push('added the key');
  } else if (mine.length === 1 && mine[0].text === line) {
    lines = current.map((l) => l.text);
  } else {
    // The first line of the key takes the wanted text; repeated lines of it go.
    let placed = false;
    lines = current.flatMap((l) => (l.key !== wanted.key ? [l.text] : placed ? [] : ((placed = true), [line])));
    parts.push(mine.length > 1 ? `updated the key's line (and removed ${mine.length - 1} repeated)` : "updated the key's line (options or comment)");
  }
  if (wanted.exclusive) {
    const others = current.filter((l) => l.key !== undefined && l.key !== wanted.key).length;
    if (others > 0) {
      const kept = new Set(current.filter((l) => l.key !== undefined && l.key !== wanted.key).map((l) => l.text));
      lines = lines.filter((text) => !kept.has(text));
      parts.push(`removed ${others} other ${others === 1 ? 'key' : 'keys'} (exclusive)`);
    }
  }
  if (parts.length === 0) return { changed: false, parts: ['key present'] };
  return { changed: true, lines, parts };
}

/** "added the key" / "Would have added the key"; several parts joined by "; ". */
export function keysMessage(plan: KeysPlan, noop: boolean): string {
  return plan.parts.map((p) => (noop && plan.changed ? `Would have ${p}` : p)).join('; ');
}
