// The run report as JSON (`govern run --json`, last-run.json): the data as built, exact text
// included, no colour; a pulled tree's files by their path in the repository (its commit is a field).
import { repositoryPaths } from '../shared/pulled-paths.js';
import { maskSecrets } from '../shared/secret-texts.js';
import type { RunReport } from './types.js';

export function reportJson(report: RunReport): string {
  return maskSecrets(repositoryPaths(JSON.stringify(report, null, 2))) + '\n';
}
