// The yaml runner's decision (docs/yaml.md): the document and the value at the key path -> the new
// content and its message, through the yaml library's Document API (format.ts). Pure.
import { decideDoc, type DocDesired } from '../lib/doc-edit/decide-doc.js';
import type { EditCurrent, EditPlan } from '../lib/text-edit/decide-edit.js';
import { yamlFormat } from './format.js';

export function decide(desired: DocDesired, current: EditCurrent, noop: boolean): EditPlan {
  return decideDoc(yamlFormat, desired, current, noop);
}
