// The shape of a runner that acts only when applied: the refresh signal it accepts (so that its
// resources can subscribe like any other) has nothing to do, and a failed system call is a message
// for the user (asUserError), not a bug with a stack trace.
import { asUserError } from '../../shared/errors.js';
import type { RunnerDescription } from '../../shared/description.js';
import type { RunnerResult } from '../../shared/protocol.js';
import type { RunnerDefinition, RunnerRequest, Values } from './index.js';

/** `what` names a resource in the refresh answer: "a cron job" gives "refresh: nothing to do for a cron job". */
export function applyOnlyRunner<D extends RunnerDescription>(
  name: string,
  description: D,
  what: string,
  apply: (request: RunnerRequest<Values<D>>) => Promise<RunnerResult>,
): RunnerDefinition<D> {
  return {
    name,
    description,
    run(request) {
      if (request.signal !== undefined) return Promise.resolve({ changed: false, message: `refresh: nothing to do for ${what}` });
      return apply(request).catch((e: unknown) => Promise.reject(asUserError(e)));
    },
  };
}
