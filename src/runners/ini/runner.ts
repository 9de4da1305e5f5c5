// The ini runner: read -> decide -> write -> re-check (lib/text-edit/edit.ts). It uses only the
// request (no process globals), so a long-lived runner process can call it many times.
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition } from '../kit/index.js';
import { editApply } from '../lib/text-edit/edit.js';
import { decide } from './decide.js';
import { description } from './description.js';
import { iniProperties } from './properties.js';

export function iniRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner(
    'ini',
    description,
    'an ini key',
    editApply(
      (r) => iniProperties(r).target,
      (r, current) => decide(iniProperties(r), current, r.noop),
    ),
  );
}
