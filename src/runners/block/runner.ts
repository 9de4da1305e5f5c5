// The block runner: read -> decide -> write -> re-check (lib/text-edit/edit.ts). It uses only the
// request (no process globals), so a long-lived runner process can call it many times.
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition } from '../kit/index.js';
import { editApply } from '../lib/text-edit/edit.js';
import { decide } from './decide.js';
import { description } from './description.js';
import { blockProperties } from './properties.js';

export function blockRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner(
    'block',
    description,
    'a block',
    editApply(
      (r) => blockProperties(r).target,
      (r, current) => decide(blockProperties(r), current, r.noop),
    ),
  );
}
