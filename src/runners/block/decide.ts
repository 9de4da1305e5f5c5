// The decision: the desired block + the file as it is -> the new content and its message. Pure but
// for the bounded pattern match (search.ts): the decision table of docs/block.md, which follows
// Ansible's blockinfile where docs/block.md does not say otherwise.
import { decideEdit, unchanged, type EditCurrent, type EditPlan } from '../lib/text-edit/decide-edit.js';
import { joinLinesKeepingEnd, splitLines, type Line, type OutLine } from '../lib/text-edit/lines.js';
import type { BlockProperties, Place } from './properties.js';
import { searchLine } from './search.js';

export type Desired = Omit<BlockProperties, 'target'>;

export function decide(desired: Desired, current: EditCurrent, noop: boolean): EditPlan {
  return decideEdit({ path: desired.path, ensure: desired.ensure, create: desired.create, what: 'the block' }, current, noop, (content) => editBlock(desired, content));
}

function editBlock(d: Desired, content: Buffer): EditPlan {
  const lines = splitLines(content);
  // The block's lines take the file's line break (its first line's): CRLF in a CRLF file.
  const crlf = lines[0]?.crlf ?? false;
  const body = d.ensure === 'present' && d.content !== '' ? d.content.replace(/\r?\n$/, '').split(/\r?\n/) : [];
  const wanted: OutLine[] = body.length === 0 ? [] : [d.begin, ...body, d.end].map((text) => ({ bytes: Buffer.from(text), crlf }));
  const edit = (summary: string, out: OutLine[]): EditPlan => ({ changed: true, summary, content: joinLinesKeepingEnd(lines, content, out), warnings });
  const warnings: string[] = [];

  // The last line equal to each marker, as Ansible's blockinfile: the markers are matched without their line break.
  const begin = lastIndex(lines, d.begin);
  const end = lastIndex(lines, d.end);
  if (begin >= 0 && end >= 0) {
    const [from, to] = begin < end ? [begin, end] : [end, begin];
    const span = `lines ${from + 1}-${to + 1}`;
    if (wanted.length === 0) return edit(`removed the block (${span})`, [...lines.slice(0, from), ...lines.slice(to + 1)]);
    const same = to - from + 1 === wanted.length && wanted.every((w, i) => w.bytes.equals(lines[from + i].bytes));
    if (same) return unchanged('block present');
    return edit(`replaced the block (${span})`, [...lines.slice(0, from), ...wanted, ...lines.slice(to + 1)]);
  }
  if (begin >= 0 || end >= 0) {
    warnings.push(`line ${Math.max(begin, end) + 1} is the ${begin >= 0 ? 'BEGIN' : 'END'} marker of the block without its ${begin >= 0 ? 'END' : 'BEGIN'} marker: it is left as it is`);
  }
  if (wanted.length === 0) return { ...unchanged('block absent'), warnings };
  const { at, where } = placeOf(d.place, lines);
  return edit(`added the block ${where}`, [...lines.slice(0, at), ...wanted, ...lines.slice(at)]);
}

function lastIndex(lines: Line[], marker: string): number {
  const wanted = Buffer.from(marker);
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].bytes.equals(wanted)) return i;
  return -1;
}

/** Where a new block goes, as an index into the lines, and its words. */
function placeOf(place: Place, lines: Line[]): { at: number; where: string } {
  if (place.at === 'end') return { at: lines.length, where: 'at the end' };
  if (place.at === 'beginning') return { at: 0, where: 'at the beginning' };
  const found = lines.findIndex((l) => searchLine(place.pattern, l.text));
  const key = place.at === 'after' ? 'insert_after' : 'insert_before';
  if (found < 0) return { at: lines.length, where: `at the end (no line matches ${key} ${JSON.stringify(place.pattern)})` };
  return place.at === 'after' ? { at: found + 1, where: `after line ${found + 1}` } : { at: found, where: `before line ${found + 1}` };
}
