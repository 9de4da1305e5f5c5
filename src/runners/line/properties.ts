// The line runner's properties, from its arguments as the description reads them. Pure: the
// regular expressions are compiled here with the flags govern checked them with.
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

export interface LineProperties {
  /** The resource name, for messages only. */
  title: string;
  path: string;
  line: string;
  match?: RegExp;
  ensure: 'present' | 'absent';
  /** insert_after. */
  after?: RegExp;
  create: boolean;
  multiple: boolean;
  /** A command checking the edited content before it replaces the file; % is the file to check. */
  validate?: string;
}

/** The flags govern's `regex` type compiles with (src/shared/values.ts), so a checked expression compiles here. */
const REGEX_FLAGS = 'u';

export function lineProperties(request: Pick<RunnerRequest<Values<typeof description>>, 'name' | 'values'>): LineProperties {
  const v = request.values;
  return {
    title: request.name,
    path: v.path,
    line: v.line,
    match: v.match === undefined ? undefined : new RegExp(v.match, REGEX_FLAGS),
    ensure: v.ensure,
    after: v.insert_after === undefined ? undefined : new RegExp(v.insert_after, REGEX_FLAGS),
    create: v.create,
    multiple: v.multiple,
    validate: v.validate,
  };
}
