// The git runner: what the checkout is and what the revision means -> decide -> clone or fetch and
// check out. It uses only the request (no process globals), so a long-lived runner process can call
// it many times.
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit.js';
import { asUserError } from '../file/errors.js';
import { withSbinPath } from '../service/provider.js';
import { decideGit } from './decide.js';
import { description } from './description.js';
import { gitProperties } from './properties.js';
import { Git } from './provider-git.js';

export function gitRunner(): RunnerDefinition<typeof description> {
  return {
    name: 'git',
    description,
    run(request) {
      if (request.signal !== undefined) return Promise.resolve({ changed: false, message: 'refresh: nothing to do for a git checkout' });
      return apply(request).catch((e: unknown) => Promise.reject(asUserError(e)));
    },
  };
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = gitProperties(request);
  const git = await Git.forUser(providerContext(withSbinPath(request.env), request.log), props);
  const plan = decideGit(props, await git.current(), request.noop);
  if (request.noop || !plan.changed) return { changed: plan.changed, message: plan.message };
  if (plan.action === 'clone') await git.clone();
  else await git.checkout();
  const head = (await git.head()).slice(0, 12);
  return { changed: true, message: plan.action === 'clone' ? `${plan.message} (${head})` : plan.message.replace(/-> fetched/, `-> ${head}`) };
}
