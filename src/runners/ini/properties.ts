// The ini runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import { editTarget, type EditTarget } from '../lib/text-edit/keys.js';
import type { description } from './description.js';

export interface IniProperties {
  path: string;
  /** Undefined: the keys before the first section. */
  section?: string;
  key: string;
  value?: string;
  ensure: 'present' | 'absent';
  /** What goes between key and value on a line the runner writes: " = " or "=". */
  separator: string;
  create: boolean;
  target: EditTarget;
}

export function iniProperties(request: Pick<RunnerRequest<Values<typeof description>>, 'values'>): IniProperties {
  const v = request.values;
  return {
    path: v.path,
    section: v.section,
    key: v.key,
    value: v.value,
    ensure: v.ensure,
    separator: v.no_extra_spaces ? '=' : ' = ',
    create: v.create,
    target: editTarget(v),
  };
}
