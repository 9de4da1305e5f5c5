// The archive runner: creates and the target's marker -> decide -> fetch -> sha256 -> extract beside
// -> rename into place. It uses only the request (no process globals), so a long-lived runner process
// can call it many times.
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { withSbinPath } from '../../shared/find-program.js';
import { decideArchive } from './decide.js';
import { description } from './description.js';
import { archiveProperties } from './properties.js';
import { tarProvider } from './provider-tar.js';

export function archiveRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('archive', description, 'an archive', apply);
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = archiveProperties(request);
  const provider = tarProvider(providerContext(withSbinPath(request.env), request.log));
  const plan = decideArchive(props, provider.status(props), request.noop);
  if (!plan.changed) return plan;
  if (request.noop) {
    // What can be known without changing anything is checked as the run checks it.
    await provider.check(props);
    return plan;
  }
  await provider.install(props);
  return plan;
}
