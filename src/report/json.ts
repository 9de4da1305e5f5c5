// The run report as JSON (`govern run --json`): the data as built, exact text included, no colour.
import { maskSecrets } from '../shared/secret-texts.js';
import type { RunReport } from './types.js';

export function reportJson(report: RunReport): string {
  return maskSecrets(JSON.stringify(report, null, 2)) + '\n';
}
