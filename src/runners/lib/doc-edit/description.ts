// What the structured-document runners (json, yaml, toml) accept, declared once: only their help
// line differs. Each runner's description.ts names its own; govern checks state files against it,
// and the runner reads its arguments with it (docs/json.md).
import type { RunnerDescription } from '../../../shared/description.js';
import { DOC_KEYS, DOC_RULES } from './keys.js';

export function docDescription<const Help extends string>(help: Help) {
  return {
    help,
    keys: DOC_KEYS,
    rules: DOC_RULES,
    signals: ['refresh'],
    autorequire: [
      // The file resource that manages the path (its owner, mode, or existence) first.
      { runner: 'file', key: 'path' },
    ],
  } as const satisfies RunnerDescription;
}
