// The json runner's decision (docs/json.md): the document and the value at the key path -> the new
// content and its message, through jsonc-parser's edit (format.ts). Pure.
import { decideDoc, type DocDesired } from '../lib/doc-edit/decide-doc.js';
import type { EditCurrent, EditPlan } from '../lib/text-edit/decide-edit.js';
import { jsonFormat } from './format.js';

export function decide(desired: DocDesired, current: EditCurrent, noop: boolean): EditPlan {
  return decideDoc(jsonFormat, desired, current, noop);
}
