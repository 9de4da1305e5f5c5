// The apply of a structured-document runner (json, yaml, toml): its arguments read into the key
// path and the typed value, then the edit runners' flow (text-edit/edit.ts: the target lock, the
// diff under the content rule, validate, backup, the atomic write). The decision is loaded first:
// a format whose library is an ES module (TOML's) is imported when a resource first needs it.
import type { RunnerDescription } from '../../../shared/description.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../../kit/index.js';
import type { EditCurrent, EditPlan } from '../text-edit/decide-edit.js';
import { editRunner } from '../text-edit/edit.js';
import { editTarget, type EditTarget } from '../text-edit/keys.js';
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

/** The runner: the edit runners' own (text-edit/edit.ts), once its decision is loaded. */
export function docRunner<D extends RunnerDescription>(name: string, description: D, what: string, loadDecide: () => Promise<Decide>): RunnerDefinition<D> {
  const properties = (r: RunnerRequest<Values<D>>): DocDesired & { target: EditTarget } => {
    const v = r.values as unknown as DocValues;
    return { ...docDesired(v), target: editTarget(v) };
  };
  let loaded: RunnerDefinition<D> | undefined;
  return {
    name,
    description,
    async run(request) {
      loaded ??= editRunner(name, description, what, properties, await loadDecide());
      return loaded.run(request);
    },
  } as RunnerDefinition<D>;
}
