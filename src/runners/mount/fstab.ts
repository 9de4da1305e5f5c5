// fstab(5) lines: read (octal escapes such as \040 for a space), written (tab-separated, escaped),
// and the one entry of a mount point put into, or taken out of, a whole table. Pure.

export interface FstabEntry {
  device: string;
  dir: string;
  fstype: string;
  options: string;
  dump: string;
  pass: string;
}

export type FstabChange = 'none' | 'added' | 'changed' | 'removed';

export interface FstabPlan {
  change: FstabChange;
  /** The whole table after the change. */
  text: string;
  /** What differs in a changed entry: "options defaults -> ro". */
  differences: string[];
}

/**
 * The octal escapes fstab and /proc/self/mountinfo use for blanks and backslashes, and for `#`,
 * which at the start of a line would make the entry a comment (libmount reads \043 as `#`).
 */
export function unescapeField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

export function escapeField(value: string): string {
  return value.replace(/[\\ \t\n#]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

/** An entry of one line; undefined for a comment, a blank line or a line too short to be one. */
export function parseFstabLine(line: string): FstabEntry | undefined {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  const f = trimmed.split(/\s+/);
  if (f.length < 3) return undefined;
  return { device: unescapeField(f[0]), dir: unescapeField(f[1]), fstype: f[2], options: f[3] ?? 'defaults', dump: f[4] ?? '0', pass: f[5] ?? '0' };
}

export function fstabLine(e: FstabEntry): string {
  return [escapeField(e.device), escapeField(e.dir), e.fstype, e.options, e.dump, e.pass].join('\t');
}

const COMPARED = ['device', 'fstype', 'options', 'dump', 'pass'] as const;

/**
 * The table with the mount point's entry as wanted (undefined: no entry). The first entry of the
 * mount point is replaced in place; any later ones (the first would be hidden by them) go.
 */
export function planFstab(text: string, dir: string, wanted: FstabEntry | undefined): FstabPlan {
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const at = lines.flatMap((line, i) => (parseFstabLine(line)?.dir === dir ? [i] : []));
  if (wanted === undefined) {
    if (at.length === 0) return { change: 'none', text, differences: [] };
    return { change: 'removed', text: join(lines.filter((_, i) => !at.includes(i))), differences: [] };
  }
  if (at.length === 0) return { change: 'added', text: join([...lines, fstabLine(wanted)]), differences: [] };
  const have = parseFstabLine(lines[at[0]])!;
  const differences = COMPARED.filter((k) => have[k] !== wanted[k]).map((k) => `${k} ${have[k]} -> ${wanted[k]}`);
  if (at.length > 1) differences.push(`${at.length - 1} more ${at.length === 2 ? 'entry' : 'entries'} removed`);
  if (differences.length === 0) return { change: 'none', text, differences };
  const next = lines.map((line, i) => (i === at[0] ? fstabLine(wanted) : line)).filter((_, i) => !at.slice(1).includes(i));
  return { change: 'changed', text: join(next), differences };
}

function join(lines: string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
