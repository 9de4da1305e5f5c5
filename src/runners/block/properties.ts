// The block runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import { editTarget, type EditTarget } from '../lib/text-edit/keys.js';
import type { description } from './description.js';

/** Where a new block goes: after or before the first line a pattern matches, or at an end of the file. */
export type Place = { at: 'end' } | { at: 'beginning' } | { at: 'after' | 'before'; pattern: string };

export interface BlockProperties {
  path: string;
  /** The marker lines, without their line break. */
  begin: string;
  end: string;
  /** The block's lines, without the markers; empty: no block. */
  content: string;
  ensure: 'present' | 'absent';
  place: Place;
  create: boolean;
  target: EditTarget;
}

export function blockProperties(request: Pick<RunnerRequest<Values<typeof description>>, 'name' | 'values'>): BlockProperties {
  const v = request.values;
  return {
    path: v.path,
    begin: `${v.marker_prefix} BEGIN govern ${request.name}`,
    end: `${v.marker_prefix} END govern ${request.name}`,
    content: v.content ?? '',
    ensure: v.ensure,
    place: placeOf(v.insert_after, v.insert_before),
    create: v.create,
    target: editTarget(v),
  };
}

/** Ansible's special values: insert_after = "EOF" (the default), insert_before = "BOF". */
function placeOf(after: string | undefined, before: string | undefined): Place {
  if (before === 'BOF') return { at: 'beginning' };
  if (before !== undefined) return { at: 'before', pattern: before };
  if (after === undefined || after === 'EOF') return { at: 'end' };
  return { at: 'after', pattern: after };
}
