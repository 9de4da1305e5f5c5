// The decision: the desired key + the file as it is -> the new content and its message. Pure: it
// holds the decision table of docs/ini.md, which follows Ansible's ini_file where docs/ini.md does
// not say otherwise: a section is the lines from "[name]" to the next line starting with "[", a
// key's line is "key", spaces or tabs, "=" (or the line's end), spaces or tabs, the value.
import { decideEdit, unchanged, type EditCurrent, type EditPlan } from '../lib/text-edit/decide-edit.js';
import { joinLinesKeepingEnd, splitLines, type OutLine } from '../lib/text-edit/lines.js';
import type { IniProperties } from './properties.js';

export type Desired = Omit<IniProperties, 'target'>;

const BOM = '\uFEFF';
/** A line that is blank or a comment: a new key goes after the last line of its section that is neither. */
const BLANK_OR_COMMENT = /^[ \t]*([#;].*)?$/;

export function decide(desired: Desired, current: EditCurrent, noop: boolean): EditPlan {
  return decideEdit({ path: desired.path, ensure: desired.ensure, create: desired.create, what: 'the key' }, current, noop, (content) => editIni(desired, content));
}

function editIni(d: Desired, content: Buffer): EditPlan {
  const lines = splitLines(content);
  // A byte order mark is kept, and not taken as part of the first line's text.
  const texts = lines.map((l, i) => (i === 0 ? l.text.replace(BOM, '') : l.text));
  const where = d.section === undefined ? 'before the first section' : `in [${d.section}]`;
  const header = d.section === undefined ? -1 : texts.findIndex((t) => t.startsWith(`[${d.section}]`));
  const edit = (summary: string, out: OutLine[]): EditPlan => ({ changed: true, summary, content: joinLinesKeepingEnd(lines, content, out), warnings: [] });
  const wanted = (crlf: boolean, indent = ''): OutLine => ({ bytes: Buffer.from(`${indent}${d.key}${d.separator}${d.value ?? ''}`), crlf });

  if (d.section !== undefined && header < 0) {
    if (d.ensure === 'absent') return unchanged(`${d.key} absent (no section [${d.section}])`);
    const crlf = lines.at(-1)?.crlf ?? false;
    return edit(`added [${d.section}] with ${d.key} at the end`, [...lines, { bytes: Buffer.from(`[${d.section}]`), crlf }, wanted(crlf)]);
  }
  const start = header + 1;
  let end = texts.findIndex((t, i) => i >= start && t.startsWith('['));
  if (end < 0) end = lines.length;
  const pattern = new RegExp(`^([ \\t]*)${escape(d.key)}[ \\t]*(?:=|$)[ \\t]*(.*)$`, 's');
  const found: { index: number; indent: string; value: string }[] = [];
  for (let i = start; i < end; i++) {
    const m = pattern.exec(texts[i]);
    if (m) found.push({ index: i, indent: m[1], value: m[2] });
  }

  if (d.ensure === 'absent') {
    if (found.length === 0) return unchanged(`${d.key} absent ${where}`);
    const gone = new Set(found.map((f) => f.index));
    return edit(`removed ${d.key} ${where} (${lineWords([...gone])})`, lines.filter((_, i) => !gone.has(i)));
  }

  if (found.length === 0) {
    // After the section's last line that is not blank or a comment: its header, when it has none.
    // Never inside a block the block runner manages: the next run of that block would take it out.
    const blocks = blockLines(texts);
    let after = start - 1;
    for (let i = end - 1; i >= start; i--) {
      if (!BLANK_OR_COMMENT.test(texts[i]) && !blocks.has(i)) {
        after = i;
        break;
      }
    }
    const at = after + 1;
    const crlf = (lines[at - 1] ?? lines[at])?.crlf ?? false;
    return edit(`added ${d.key} ${where} (line ${at + 1})`, [...lines.slice(0, at), wanted(crlf), ...lines.slice(at)]);
  }

  // The line already holding the value stays; else the first line of the key takes it. Any other
  // line of the key is a duplicate, removed (as Ansible's ini_file with its default exclusive).
  const keep = found.find((f) => f.value === d.value) ?? found[0];
  const duplicates = found.filter((f) => f !== keep).map((f) => f.index);
  const replace = keep.value !== d.value;
  if (!replace && duplicates.length === 0) return unchanged(`${d.key} up to date ${where}`);
  const gone = new Set(duplicates);
  const bom = keep.index === 0 && lines[0].text.startsWith(BOM) ? BOM : '';
  const out = lines.flatMap((l, i) => (gone.has(i) ? [] : i === keep.index && replace ? [wanted(l.crlf, bom + keep.indent)] : [l]));
  const said = [
    ...(replace ? [`set ${d.key} ${where} (line ${keep.index + 1})`] : []),
    ...(duplicates.length > 0 ? [`removed the duplicate${duplicates.length > 1 ? 's' : ''} of ${d.key} ${where} (${lineWords(duplicates)})`] : []),
  ];
  return edit(said.join(', '), out);
}

/** The lines of the block runner's blocks, markers included ("# BEGIN govern NAME" to "# END govern NAME"). */
function blockLines(texts: string[]): Set<number> {
  const inside = new Set<number>();
  let open: { at: number; end: string } | undefined;
  texts.forEach((t, i) => {
    const begin = open ? undefined : /^(\S+) BEGIN govern (.+)$/.exec(t);
    if (begin) open = { at: i, end: `${begin[1]} END govern ${begin[2]}` };
    else if (open && t === open.end) {
      for (let j = open.at; j <= i; j++) inside.add(j);
      open = undefined;
    }
  });
  return inside;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Messages name at most this many line numbers. */
const NAMED_LINES = 10;

/** 0-based indexes as "line 4", "lines 4, 9 and 12", "lines 1, 2, ... 10 and 990 more". */
function lineWords(indexes: number[]): string {
  const numbers = indexes.map((i) => i + 1);
  if (numbers.length === 1) return `line ${numbers[0]}`;
  if (numbers.length > NAMED_LINES) return `lines ${numbers.slice(0, NAMED_LINES).join(', ')} and ${numbers.length - NAMED_LINES} more`;
  return `lines ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}
