// The yaml runner: read -> decide -> write -> re-check (lib/text-edit/edit.ts). It uses only the
// request (no process globals), so a long-lived runner process can call it many times.
import type { RunnerDefinition } from '../kit/index.js';
import { docRunner } from '../lib/doc-edit/apply.js';
import { decide } from './decide.js';
import { description } from './description.js';

export function yamlRunner(): RunnerDefinition<typeof description> {
  return docRunner('yaml', description, 'a YAML value', async () => decide);
}
