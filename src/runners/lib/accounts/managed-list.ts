// A list of names the user and group runners manage (`groups`, `members`), with its mode key.
import type { RunnerRequest } from '../../kit/index.js';

/**
 * The list, or undefined when it is not managed. An empty list reaches a runner as no argument at
 * all, so its mode key given with no list manages it as empty (docs/user.md, "Groups").
 */
export function listManaged(request: Pick<RunnerRequest<unknown>, 'params'>, key: string, modeKey: string): string[] | undefined {
  if (request.params.has(key)) return [...new Set(request.params.list(key))];
  return request.params.has(modeKey) ? [] : undefined;
}
