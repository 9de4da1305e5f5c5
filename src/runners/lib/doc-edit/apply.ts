// The apply of a structured-document runner (json, yaml, toml): its arguments read into the key
// path and the typed value, then the edit runners' flow (text-edit/edit.ts: the target lock, the
// diff under the content rule, validate, backup, the atomic write). The decision is loaded first:
// a format whose library is an ES module (TOML's) is imported when a resource first needs it.
import type { RunnerResult } from '../../../shared/protocol.js';
import type { RunnerRequest } from '../../kit/index.js';
import type { EditCurrent, EditPlan } from '../text-edit/decide-edit.js';
import { editApply } from '../text-edit/edit.js';
import { editTarget } from '../text-edit/keys.js';
import type { DocDesired } from './decide-doc.js';
import { keyPath, typedValue } from './keys.js';

export interface DocValues {
  path: string;
  key: string;
  value?: string;
  type: 'auto' | 'string' | 'json';
  ensure: 'present' | 'absent';
  create: boolean;
  owner?: string;
  group?: string;
  mode?: number;
  validate?: string;
  backup: boolean;
}

type Decide = (desired: DocDesired, current: EditCurrent, noop: boolean) => EditPlan;

export function docDesired(v: DocValues): DocDesired {
  const value = v.ensure === 'present' && v.value !== undefined ? typedValue(v.value, v.type) : undefined;
  return { path: v.path, key: v.key, segments: keyPath(v.key), ensure: v.ensure, value, create: v.create };
}

export function docApply<R extends RunnerRequest<DocValues>>(loadDecide: () => Promise<Decide>): (request: R) => Promise<RunnerResult> {
  return async (request) => {
    const decide = await loadDecide();
    const desired = docDesired(request.values);
    return editApply(
      (r: R) => editTarget(r.values),
      (r: R, current) => decide(desired, current, r.noop),
    )(request);
  };
}
