// The toml runner's decision (docs/toml.md): the document and the value at the key path -> the new
// content and its message, through the TOML library's patch (format.ts). Pure once the library is
// loaded: `decider` loads it and gives the decision.
import { decideDoc, type DocDesired, type DocFormat } from '../lib/doc-edit/decide-doc.js';
import type { EditCurrent, EditPlan } from '../lib/text-edit/decide-edit.js';
import { tomlFormat } from './format.js';

export type Decide = (desired: DocDesired, current: EditCurrent, noop: boolean) => EditPlan;

export function decideWith(format: DocFormat): Decide {
  return (desired, current, noop) => decideDoc(format, desired, current, noop);
}

export async function decider(): Promise<Decide> {
  return decideWith(await tomlFormat());
}
