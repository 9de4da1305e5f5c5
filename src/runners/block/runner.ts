// The block runner: read -> decide -> write -> re-check (lib/text-edit/edit.ts, through the edit
// runners' provider). It uses only the request (no process globals), so a long-lived runner process
// can call it many times.
import type { RunnerDefinition } from '../kit/index.js';
import { editRunner } from '../lib/text-edit/edit.js';
import { decide } from './decide.js';
import { description } from './description.js';
import { blockProperties } from './properties.js';

export function blockRunner(): RunnerDefinition<typeof description> {
  return editRunner('block', description, 'a block', blockProperties, decide);
}
