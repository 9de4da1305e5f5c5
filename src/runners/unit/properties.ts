// The unit runner's properties, from its arguments as the description reads them, and the path the
// unit's file has in its scope. Pure but for reading a `source` file.
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;
export type UnitScope = Described['scope'];

export interface UnitProperties {
  /** The resource name: the file's path under the unit directory. */
  name: string;
  ensure: Described['ensure'];
  /** Inline content (`content`, or `contents` as `template` renders it). */
  content?: string;
  /** A file to copy, resolved against the state file's directory. */
  source?: string;
  scope: UnitScope;
  showDiff: boolean;
}

export function unitProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values' | 'stateDir'>): UnitProperties {
  const v = request.values;
  const content = v.content ?? v.contents;
  if (v.ensure === 'present' && content === undefined && v.source === undefined) {
    throw new UserError(`unit ${request.name}: ensure = "present" needs its content: give content, template or source`);
  }
  const source = v.source === undefined ? undefined : path.resolve(request.stateDir ?? process.cwd(), v.source);
  return { name: request.name, ensure: v.ensure, content, source, scope: v.scope, showDiff: v.show_diff };
}
