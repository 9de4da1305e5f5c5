// What the toml runner accepts (docs/toml.md): the structured-document runners' description, with its help.
import { docDescription } from '../lib/doc-edit/description.js';

export const description = docDescription('a value at a key path in a TOML document: set (typed), or removed; comments, order and the other lines kept');
