// What the json runner accepts (docs/json.md): the structured-document runners' description, with its help.
import { docDescription } from '../lib/doc-edit/description.js';

export const description = docDescription('a value at a key path in a JSON document: set (typed), or removed; every other byte of the document kept');
