// Which persistent runners a run of a state tree will need, known before the tree is planned: those
// the last run of the same tree used, kept in the runner cache's directory (under its rules), so that
// they can start while govern renders and parses. Only a runner file unchanged since it described
// itself as persistent, and passing the trust check every program govern runs passes (shared/trust.ts:
// the file and every directory and link above it only root or the running user can change), is
// started early; planning then checks everything as always, and a runner not forecast starts then.
import path from 'node:path';
import { DescriptionCache } from '../describe/cache.js';
import { trustedProgram } from '../shared/trust.js';
import type { RunnerCache } from '../state/runner-cache.js';

const FORMAT = 'govern-runners-used-1';

const keyOf = (target: string) => `${FORMAT}\0${path.resolve(target)}`;

export function forecastRunners(cache: RunnerCache, target: string): string[] {
  const kept = cache.area('used').get(keyOf(target));
  const executables = Array.isArray(kept?.executables) ? kept.executables.filter((e): e is string => typeof e === 'string') : [];
  const descriptions = new DescriptionCache(cache.area('runner'));
  return executables.filter((executable) => {
    const answer = descriptions.kept(executable);
    return answer?.kind === 'described' && answer.description.persistent === true && 'path' in trustedProgram(executable);
  });
}

/** Keeps the persistent runners this run of the tree used, when they differ from the last run's. */
export function rememberRunners(cache: RunnerCache, target: string, executables: string[]): void {
  const area = cache.area('used');
  const kept = area.get(keyOf(target))?.executables;
  const sorted = [...new Set(executables)].sort();
  if (JSON.stringify(kept) !== JSON.stringify(sorted)) area.put(keyOf(target), { executables: sorted });
}
