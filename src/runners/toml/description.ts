// What the toml runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/toml.md).
import type { RunnerDescription } from '../../shared/description.js';
import { DOC_KEYS, DOC_RULES } from '../lib/doc-edit/keys.js';

export const description = {
  help: 'a value at a key path in a TOML document: set (typed), or removed; comments, order and the other lines kept',
  keys: DOC_KEYS,
  rules: DOC_RULES,
  signals: ['refresh'],
  autorequire: [
    // The file resource that manages the path (its owner, mode, or existence) first.
    { runner: 'file', key: 'path' },
  ],
} as const satisfies RunnerDescription;
